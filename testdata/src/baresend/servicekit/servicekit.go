// Package servicekit turns a loop into a service that a supervisor starts,
// stops and restarts. Its runners differ in what they do after Stop, which
// decides whether the loop's return on its context is final.
package servicekit

import (
	"context"
	"sync"
)

// Service runs its loop with the one context it was made with. Serve does
// not run the loop once Stop has cancelled that context, so a supervisor
// that calls Serve again after Stop starts nothing.
type Service struct {
	name   string
	loop   func(ctx context.Context)
	ctx    context.Context
	cancel context.CancelFunc
}

func New(name string, loop func(ctx context.Context)) *Service { // want New:`runs parameters \[1\] until their context is done`
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{name: name, loop: loop, ctx: ctx, cancel: cancel}
}

func (s *Service) Serve() {
	if s.ctx.Err() != nil {
		return
	}
	s.loop(s.ctx)
}

func (s *Service) Stop() { s.cancel() }

// Wrap adapts a loop that returns nothing to New, through a closure that
// passes on the context it is run with.
func Wrap(name string, loop func(ctx context.Context)) *Service { // want Wrap:`runs parameters \[1\] until their context is done`
	return New(name, func(ctx context.Context) {
		loop(ctx)
	})
}

// Go runs loop once, on a goroutine of its own; stop cancels its context.
func Go(loop func(ctx context.Context)) (stop func()) { // want Go:`runs parameters \[0\] until their context is done`
	ctx, cancel := context.WithCancel(context.Background())
	go loop(ctx)
	return cancel
}

// Retry runs loop again each time it returns, for as long as ctx is live.
func Retry(ctx context.Context, loop func(ctx context.Context)) { // want Retry:`runs parameters \[1\] until their context is done` Retry:`calls parameters \[1\] in place`
	for ctx.Err() == nil {
		loop(ctx)
	}
}

// Restartable makes a new context on every Serve: Stop ends one run, and
// the supervisor's next Serve starts the loop again.
type Restartable struct {
	mu     sync.Mutex
	loop   func(ctx context.Context)
	ctx    context.Context
	cancel context.CancelFunc
}

func NewRestartable(loop func(ctx context.Context)) *Restartable {
	return &Restartable{loop: loop}
}

func (s *Restartable) Serve() { // want Serve:`acquires baresend/servicekit.Restartable.mu`
	s.mu.Lock()
	s.ctx, s.cancel = context.WithCancel(context.Background())
	ctx := s.ctx
	s.mu.Unlock()
	if ctx.Err() != nil {
		return
	}
	s.loop(ctx)
}

func (s *Restartable) Stop() { // want Stop:`acquires baresend/servicekit.Restartable.mu`
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// Forever restarts loop whenever it returns, with the same context, whether
// or not that context is done.
func Forever(ctx context.Context, loop func(ctx context.Context)) {
	go func() {
		for {
			loop(ctx)
		}
	}()
}

// Group keeps loops for a supervisor to run later, as often as it likes.
type Group struct {
	loops []func(ctx context.Context)
}

func (g *Group) Add(loop func(ctx context.Context)) {
	g.loops = append(g.loops, loop)
}
