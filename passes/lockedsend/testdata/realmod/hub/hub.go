// Package hub serves connect streams and calls into package events, with
// the real connectrpc.com/connect and google.golang.org/grpc.
package hub

import (
	"context"
	"sync"

	"connectrpc.com/connect"
	"google.golang.org/grpc"

	"example.com/lockedrealmod/events"
	"example.com/workerpool"
)

type Hub struct {
	mu   sync.Mutex
	last *events.Event
	out  func(*events.Event) error
}

func (h *Hub) Watch(ctx context.Context, req *connect.Request[events.Event], stream *connect.ServerStream[events.Event]) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return stream.Send(h.last) // want `stream send stream\.Send can block while h\.mu is held`
}

func (h *Hub) Chat(ctx context.Context, stream *connect.BidiStream[events.Event, events.Event]) error {
	h.mu.Lock()
	h.out = stream.Send
	last := h.last
	h.mu.Unlock()
	if _, err := stream.Receive(); err != nil { // ok: a receive
		return err
	}
	return stream.Send(last) // ok: h.mu is released
}

func (h *Hub) push(e *events.Event) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.out(e) // want `stream send through h\.out \(holds stream\.Send, taken at hub\.go:\d+\) can block while h\.mu is held`
}

func (h *Hub) relay(s grpc.BidiStreamingServer[events.Event, events.Event], raw grpc.ServerStream) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := events.Reply(s, h.last); err != nil { // want `call to events\.Reply can block while h\.mu is held: events\.Reply → stream send s\.Send`
		return err
	}
	return events.Trailer(raw, h.last) // want `call to events\.Trailer can block while h\.mu is held: events\.Trailer → stream send s\.SendMsg`
}

// A send inside another module's worker pool is that module's business:
// the caller cannot act on it.
func (h *Hub) offload(p *workerpool.Pool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p.Submit(func() {})
}

// A send on a queue of this module reached through a helper is reported,
// in the audit tier: no receiver of q.ch is seen to need h.mu.
type queue struct{ ch chan func() }

func (q *queue) submit(f func()) { q.ch <- f }

func (h *Hub) enqueue(q *queue) {
	h.mu.Lock()
	defer h.mu.Unlock()
	q.submit(func() {}) // want `call to q\.submit can block while h\.mu is held: \(\*hub\.queue\)\.submit → send on q\.ch.*\[audit: `
}
