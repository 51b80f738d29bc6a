package baresend

import (
	"context"
	"time"

	"baresend/servicekit"
)

// A service's loop handed to a runner, as a method value, is its channels'
// last receiver when the runner never runs it again once the context it
// gave the loop is done: the loop returns on that context, and a caller
// that sends afterwards waits for good. A runner that makes a new context
// for each run, or runs the loop again regardless, may bring it back, and
// such a finding stays in the audit tier.

// eventBus delivers events from one loop run as a servicekit.Service. Once
// the service is stopped, Publish fills the buffer and Unsubscribe waits
// for a loop that has returned.
type eventBus struct {
	*servicekit.Service
	events      chan string
	unsubscribe chan int
	subs        map[int]chan string
}

func newEventBus() *eventBus {
	b := &eventBus{
		events:      make(chan string, 64),
		unsubscribe: make(chan int),
		subs:        make(map[int]chan string),
	}
	b.Service = servicekit.New("events", b.serve)
	return b
}

func (b *eventBus) serve(ctx context.Context) {
	for {
		select {
		case e := <-b.events:
			for _, sub := range b.subs {
				select {
				case sub <- e:
				default:
				}
			}
		case id := <-b.unsubscribe:
			delete(b.subs, id)
		case <-ctx.Done():
			return
		}
	}
}

func (b *eventBus) PublishBad(e string) {
	b.events <- e // want `send on b.events \(chan string, cap 64\) can block forever: its receiver \(\*eventBus\).serve can stop receiving, and no liveness case`
}

func (b *eventBus) UnsubscribeBad(id int) {
	b.unsubscribe <- id // want `send on b.unsubscribe \(chan int, unbuffered\) can block forever: its receiver \(\*eventBus\).serve can stop receiving`
}

// UnsubscribeOK gives up when the caller's context ends.
func (b *eventBus) UnsubscribeOK(ctx context.Context, id int) {
	select {
	case b.unsubscribe <- id:
	case <-ctx.Done():
	}
}

// wrappedBus is run through servicekit.Wrap, whose closure passes on the
// context New runs it with.
type wrappedBus struct {
	*servicekit.Service
	drop chan int
}

func newWrappedBus() *wrappedBus {
	b := &wrappedBus{drop: make(chan int)}
	b.Service = servicekit.Wrap("wrapped", b.loop)
	return b
}

func (b *wrappedBus) loop(ctx context.Context) {
	for {
		select {
		case id := <-b.drop:
			println(id)
		case <-ctx.Done():
			return
		}
	}
}

func (b *wrappedBus) DropBad(id int) {
	b.drop <- id // want `send on b.drop \(chan int, unbuffered\) can block forever: its receiver \(\*wrappedBus\).loop can stop receiving`
}

// flusher's loop runs once on a goroutine of servicekit.Go's.
type flusher struct {
	stop    func()
	flushes chan chan error
}

func newFlusher() *flusher {
	f := &flusher{flushes: make(chan chan error)}
	f.stop = servicekit.Go(f.run)
	return f
}

func (f *flusher) run(ctx context.Context) {
	for {
		select {
		case done := <-f.flushes:
			done <- nil
		case <-ctx.Done():
			return
		}
	}
}

func (f *flusher) FlushBad() error {
	done := make(chan error, 1)
	f.flushes <- done // want `send on f.flushes \(chan chan error, unbuffered\) can block forever: its receiver \(\*flusher\).run can stop receiving`
	return <-done
}

// retrier's loop is run again by servicekit.Retry each time it returns,
// for as long as the caller's context is live.
type retrier struct{ jobs chan int }

func startRetrier(ctx context.Context) *retrier {
	r := &retrier{jobs: make(chan int)}
	go servicekit.Retry(ctx, r.work)
	return r
}

func (r *retrier) work(ctx context.Context) {
	for {
		select {
		case j := <-r.jobs:
			println(j)
		case <-ctx.Done():
			return
		}
	}
}

func (r *retrier) SubmitBad(j int) {
	r.jobs <- j // want `send on r.jobs \(chan int, unbuffered\) can block forever: its receiver \(\*retrier\).work can stop receiving`
}

// localService is this package's own runner: Serve checks that the
// service's context is not done before it runs the loop.
type localService struct {
	loop func(context.Context)
	ctx  context.Context
	stop context.CancelFunc
}

func newLocalService(loop func(context.Context)) *localService {
	ctx, cancel := context.WithCancel(context.Background())
	return &localService{loop: loop, ctx: ctx, stop: cancel}
}

func (s *localService) Serve() {
	select {
	case <-s.ctx.Done():
		return
	default:
	}
	s.loop(s.ctx)
}

type registry struct {
	svc   *localService
	names chan string
}

func newRegistry() *registry {
	r := &registry{names: make(chan string)}
	r.svc = newLocalService(r.serve)
	return r
}

func (r *registry) serve(ctx context.Context) {
	for {
		select {
		case n := <-r.names:
			println(n)
		case <-ctx.Done():
			return
		}
	}
}

func (r *registry) RegisterBad(n string) {
	r.names <- n // want `send on r.names \(chan string, unbuffered\) can block forever: its receiver \(\*registry\).serve can stop receiving`
}

// restartingBus is run by a servicekit.Restartable, which makes a new
// context for every Serve: after a Stop, the next Serve brings the loop
// back to receive.
type restartingBus struct {
	svc   *servicekit.Restartable
	drops chan int
}

func newRestartingBus() *restartingBus {
	b := &restartingBus{drops: make(chan int)}
	b.svc = servicekit.NewRestartable(b.loop)
	return b
}

func (b *restartingBus) loop(ctx context.Context) {
	for {
		select {
		case id := <-b.drops:
			println(id)
		case <-ctx.Done():
			return
		}
	}
}

func (b *restartingBus) dropAudit(id int) {
	b.drops <- id // want `send on b.drops .* \[audit: its receiver \(\*restartingBus\).loop can stop waiting, but may run again for the same channel\]`
}

// foreverBus is restarted by servicekit.Forever whenever its loop returns,
// its context done or not.
type foreverBus struct{ pings chan int }

func newForeverBus(ctx context.Context) *foreverBus {
	b := &foreverBus{pings: make(chan int)}
	servicekit.Forever(ctx, b.loop)
	return b
}

func (b *foreverBus) loop(ctx context.Context) {
	for {
		select {
		case p := <-b.pings:
			println(p)
		case <-ctx.Done():
			return
		}
	}
}

func (b *foreverBus) pingAudit(p int) {
	b.pings <- p // want `send on b.pings .* \[audit: its receiver \(\*foreverBus\).loop can stop waiting, but may run again for the same channel\]`
}

// groupedBus is kept by a servicekit.Group, which may run its loop as
// often as it likes.
type groupedBus struct{ acks chan int }

func newGroupedBus(g *servicekit.Group) *groupedBus {
	b := &groupedBus{acks: make(chan int)}
	g.Add(b.loop)
	return b
}

func (b *groupedBus) loop(ctx context.Context) {
	for {
		select {
		case a := <-b.acks:
			println(a)
		case <-ctx.Done():
			return
		}
	}
}

func (b *groupedBus) ackAudit(a int) {
	b.acks <- a // want `send on b.acks .* \[audit: its receiver \(\*groupedBus\).loop can stop waiting, but may run again for the same channel\]`
}

// idleBus's loop gives up after a quiet minute, not on its context: the
// supervisor's next Serve runs it again while the service lives.
type idleBus struct {
	*servicekit.Service
	wakes chan int
}

func newIdleBus() *idleBus {
	b := &idleBus{wakes: make(chan int)}
	b.Service = servicekit.New("idle", b.loop)
	return b
}

func (b *idleBus) loop(ctx context.Context) {
	for {
		select {
		case w := <-b.wakes:
			println(w)
		case <-time.After(time.Minute):
			return
		}
	}
}

func (b *idleBus) wakeAudit(w int) {
	b.wakes <- w // want `send on b.wakes .* \[audit: its receiver \(\*idleBus\).loop can stop waiting, but may run again for the same channel\]`
}

// uncheckedService runs its loop whenever Serve is called, without asking
// whether its context is done, so a Serve after Stop runs the loop again.
type uncheckedService struct {
	loop func(context.Context)
	ctx  context.Context
}

func newUncheckedService(loop func(context.Context)) *uncheckedService {
	return &uncheckedService{loop: loop, ctx: context.Background()}
}

func (s *uncheckedService) Serve() { s.loop(s.ctx) }

type uncheckedBus struct {
	svc   *uncheckedService
	marks chan int
}

func newUncheckedBus() *uncheckedBus {
	b := &uncheckedBus{marks: make(chan int)}
	b.svc = newUncheckedService(b.loop)
	return b
}

func (b *uncheckedBus) loop(ctx context.Context) {
	for {
		select {
		case m := <-b.marks:
			println(m)
		case <-ctx.Done():
			return
		}
	}
}

func (b *uncheckedBus) markAudit(m int) {
	b.marks <- m // want `send on b.marks .* \[audit: its receiver \(\*uncheckedBus\).loop can stop waiting, but may run again for the same channel\]`
}
