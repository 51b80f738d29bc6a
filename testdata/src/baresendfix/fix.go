// Package baresendfix holds the bare sends for which baresend offers a fix:
// a select that also gives up when a liveness channel in scope fires. The
// fixed code is in fix.go.golden.
package baresendfix

import (
	"context"
	"sync"
)

type Response struct{ ID string }

type client struct{ responses chan Response }

type server struct {
	out  chan Response
	stop chan struct{}
}

func newServer() *server {
	return &server{out: make(chan Response), stop: make(chan struct{})}
}

// relay's done is never set: a case on the nil channel would never fire,
// so no fix is offered.
type relay struct {
	out  chan Response
	done chan struct{}
}

func (r *relay) emit(x Response) {
	r.out <- x // want `send on r\.out .* can block forever.*\[audit: `
}

type state struct{ n int }

func replyCtx(ctx context.Context, c *client, r Response) {
	c.responses <- r // want `send on c\.responses .* can block forever.*\[audit: `
	println("replied")
}

func replyErr(ctx context.Context, c *client, r Response) error {
	c.responses <- r // want `send on c\.responses .* can block forever.*\[audit: `
	return nil
}

func replyResults(ctx context.Context, c *client, r Response) (int, *Response, state, error) {
	c.responses <- r // want `send on c\.responses .* can block forever.*\[audit: `
	return 1, &r, state{}, nil
}

// replyLocked must not return between Lock and Unlock: the fix only gives
// up the send.
func replyLocked(ctx context.Context, mu *sync.Mutex, c *client, r Response) error {
	mu.Lock()
	c.responses <- r // want `send on c\.responses .* can block forever.*\[audit: `
	mu.Unlock()
	return nil
}

func replyAsync(ctx context.Context, c *client, r Response) {
	go func() {
		c.responses <- r // want `send on c\.responses .* can block forever.*\[audit: `
	}()
}

func (s *server) emit(r Response) {
	s.out <- r // want `send on s\.out .* can block forever.*\[audit: `
}

func emitUntil(stop <-chan struct{}, c *client, r Response) {
	for i := 0; i < 3; i++ {
		c.responses <- r // want `send on c\.responses .* can block forever.*\[audit: `
	}
}

// No liveness channel in scope: no fix, and never a default.
func replyNoLiveness(c *client, r Response) {
	c.responses <- r // want `send on c\.responses .* can block forever.*\[audit: `
}

// A send-only channel cannot be received from: not a liveness channel.
func emitSendOnlyDone(done chan<- struct{}, c *client, r Response) {
	c.responses <- r // want `send on c\.responses .* can block forever.*\[audit: `
}

// A ctx declared after the send is not in scope at it.
func replyCtxLater(c *client, r Response) context.Context {
	c.responses <- r // want `send on c\.responses .* can block forever.*\[audit: `
	ctx := context.Background()
	return ctx
}

type monitor struct{ stopCh chan struct{} }

// The channel sent on is not its own liveness case.
func (m *monitor) stop() {
	stopCh := m.stopCh
	stopCh <- struct{}{} // want `send on stopCh .* can block forever.*\[audit: `
}
