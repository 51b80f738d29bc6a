package svc

import (
	"context"
	"sync"

	"connectrpc.com/connect"
)

// Hub keeps each agent's stream Send and relays commands to it from any
// caller's goroutine: the runner hub's shape.
type Hub struct {
	mu     sync.Mutex
	agents map[string]*agent
}

type agent struct {
	sendMu sync.Mutex
	send   func(*Note) error
}

func (h *Hub) agent(id string) *agent {
	h.mu.Lock()
	defer h.mu.Unlock()
	a := h.agents[id]
	if a == nil {
		a = new(agent)
		h.agents[id] = a
	}
	return a
}

func (a *agent) attach(send func(*Note) error) {
	a.sendMu.Lock()
	a.send = send
	a.sendMu.Unlock()
}

func (h *Hub) Sessions(ctx context.Context, stream *connect.BidiStream[Note, Note]) error {
	h.agent("x").attach(stream.Send)
	for {
		if _, err := stream.Receive(); err != nil {
			return err
		}
	}
}

func (h *Hub) Command(ctx context.Context, req *connect.Request[Note]) (*connect.Response[Summary], error) {
	a := h.agent(req.Msg.Text)
	a.sendMu.Lock()
	defer a.sendMu.Unlock()
	if err := a.send(req.Msg); err != nil { // want `a\.send, which holds stream\.Send taken at connectsvc\.go:\d+, is called from Hub\.Command, which any goroutine may call`
		return nil, err
	}
	return connect.NewResponse(&Summary{}), nil
}

// Watch streams from one goroutine it starts, and receives on its own.
func (h *Hub) Watch(ctx context.Context, stream *connect.BidiStream[Note, Note]) error {
	out := make(chan *Note, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for n := range out {
			if stream.Send(n) != nil { // ok: the only sender
				return
			}
		}
	}()
	defer func() { close(out); <-done }()
	for {
		n, err := stream.Receive()
		if err != nil {
			return err
		}
		out <- n
	}
}

// Tail is a server-streaming handler that sends from its own goroutine.
func (h *Hub) Tail(ctx context.Context, req *connect.Request[Note], stream *connect.ServerStream[Note]) error {
	for i := 0; i < 3; i++ {
		if err := stream.Send(req.Msg); err != nil { // ok: the only sender
			return err
		}
	}
	return nil
}

// Push opens a client stream and sends on it from two goroutines.
func Push(ctx context.Context, open func(context.Context) *connect.BidiStreamForClient[Note, Note]) {
	stream := open(ctx)
	go stream.Send(&Note{Text: "hello"})
	stream.Send(&Note{Text: "again"}) // want `stream\.Send is called on Push's goroutine, but the goroutine started at connectsvc\.go:\d+, is the stream's sender`
}
