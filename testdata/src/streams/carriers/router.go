// Package carriers follows func values that hold a stream's Send. router.go
// reproduces the runner hub: the Sessions handler hands stream.Send to a
// command router, which stores it and calls it under a mutex.
package carriers

import (
	"context"
	"sync"

	"connectrpc.com/connect"
)

type SessionsRequest struct{}

type SessionsResponse struct{}

// commandRouter relays commands to one attached runner.
type commandRouter struct {
	mu     sync.Mutex
	sendMu sync.Mutex
	send   func(*SessionsResponse) error
	// logf holds something else of a func type.
	logf func(format string, args ...any)
}

func (r *commandRouter) attach(send func(*SessionsResponse) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.send = send
}

func (r *commandRouter) detach() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.send = nil
}

func (r *commandRouter) push(cmd *SessionsResponse) error {
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	return r.send(cmd) // want `send \(\*connect.BidiStream\).Send: r.send, which holds stream.Send taken at router.go:61`
}

func (r *commandRouter) pushCopy(cmd *SessionsResponse) error {
	r.mu.Lock()
	s := r.send
	r.mu.Unlock()
	if s == nil {
		return nil
	}
	return s(cmd) // want `send \(\*connect.BidiStream\).Send: r.send, which holds stream.Send taken at router.go:61`
}

func (r *commandRouter) log(msg string) {
	r.logf("%s", msg) // ok: logf never holds a send
}

type handler struct{ router *commandRouter }

func (h *handler) Sessions(ctx context.Context, stream *connect.BidiStream[SessionsRequest, SessionsResponse]) error {
	h.router.attach(stream.Send)
	defer h.router.detach()
	for {
		if _, err := stream.Receive(); err != nil { // ok: a receive
			return err
		}
	}
}
