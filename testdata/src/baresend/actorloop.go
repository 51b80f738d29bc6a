package baresend

import (
	"context"
	"errors"
)

// A ring member runs every change of its state on one actor goroutine.
// Callers off that goroutine wrap the change in a closure that reports
// on a reply channel, hand the closure to the actor, and wait for the
// reply. The hand-off reports whether the actor took the closure: when it
// did not (the member is stopping), the closure never runs and the caller
// may return without waiting.

var errNotRunning = errors.New("member not running")

type ringMember struct {
	actions chan func()
	done    chan struct{}
	state   string
}

func (m *ringMember) loop() {
	for {
		select {
		case fn := <-m.actions:
			fn()
		case <-m.done:
			return
		}
	}
}

func (m *ringMember) setState(state string) error {
	m.state = state
	return nil
}

// enqueue hands fn to the actor, or says it could not.
func (m *ringMember) enqueue(fn func()) error {
	if m.actions == nil {
		return errNotRunning
	}
	select {
	case <-m.done:
		return errNotRunning
	case m.actions <- fn:
		return nil
	}
}

// ChangeState returns early only when enqueue did not hand fn on: quiet.
func (m *ringMember) ChangeState(state string) error {
	errc := make(chan error)
	fn := func() {
		errc <- m.setState(state)
	}
	if err := m.enqueue(fn); err != nil {
		return err
	}
	return <-errc
}

// ChangeReadOnly has two exclusive replies: quiet too.
func (m *ringMember) ChangeReadOnly(readOnly bool) error {
	errc := make(chan error)
	fn := func() {
		if readOnly == (m.state == "read-only") {
			errc <- nil
			return
		}
		errc <- m.setState("read-only")
	}
	if err := m.enqueue(fn); err == nil {
		return <-errc
	} else {
		return err
	}
}

// enqueueOrTimeout also says it failed when the caller's context ends
// after fn was handed on.
func (m *ringMember) enqueueOrTimeout(ctx context.Context, fn func()) error {
	select {
	case <-m.done:
		return errNotRunning
	case m.actions <- fn:
	}
	return ctx.Err()
}

// ChangeStateBefore leaves the actor's reply behind when the context ends
// after the hand-off.
func (m *ringMember) ChangeStateBefore(ctx context.Context, state string) error {
	errc := make(chan error)
	fn := func() {
		errc <- m.setState(state) // want `send on errc \(chan error, unbuffered\) can block forever: \(\*ringMember\)\.ChangeStateBefore can return without receiving it`
	}
	if err := m.enqueueOrTimeout(ctx, fn); err != nil {
		return err
	}
	return <-errc
}

// enqueueLogged also keeps fn for a log of what ran.
func (m *ringMember) enqueueLogged(fn func(), log *[]func()) error {
	*log = append(*log, fn)
	select {
	case <-m.done:
		return errNotRunning
	case m.actions <- fn:
		return nil
	}
}

// ChangeStateLogged hands fn to a function that keeps it elsewhere too.
func (m *ringMember) ChangeStateLogged(state string, log *[]func()) error {
	errc := make(chan error)
	fn := func() {
		errc <- m.setState(state) // want `send on errc \(chan error, unbuffered\) can block forever: \(\*ringMember\)\.ChangeStateLogged can return without receiving it`
	}
	if err := m.enqueueLogged(fn, log); err != nil {
		return err
	}
	return <-errc
}
