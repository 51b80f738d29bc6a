// Package connectsvc calls the real connect stream API, including the
// runner hub's shape: a handler hands stream.Send to a router that calls it
// under a mutex.
package connectsvc

import (
	"context"
	"sync"

	"connectrpc.com/connect"
)

type Req struct{}

type Res struct{}

type router struct {
	mu   sync.Mutex
	send func(*Res) error
}

func (r *router) attach(send func(*Res) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.send = send
}

func (r *router) push(m *Res) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.send(m) // want `send \(\*connect.BidiStream\).Send: r.send, which holds stream.Send taken at connectsvc.go:37`
}

type handler struct{ r *router }

func (h *handler) Chat(ctx context.Context, stream *connect.BidiStream[Req, Res]) error {
	h.r.attach(stream.Send)
	for {
		if _, err := stream.Receive(); err != nil {
			return err
		}
		if err := stream.Send(&Res{}); err != nil { // want `send \(\*connect.BidiStream\).Send: stream.Send`
			return err
		}
	}
}

func (h *handler) Watch(ctx context.Context, req *connect.Request[Req], stream *connect.ServerStream[Res]) error {
	stream.ResponseHeader().Set("x", "y")
	return stream.Send(&Res{}) // want `send \(\*connect.ServerStream\).Send: stream.Send`
}

func (h *handler) Upload(ctx context.Context, stream *connect.ClientStream[Req]) (*connect.Response[Res], error) {
	for stream.Receive() {
		_ = stream.Msg()
	}
	return connect.NewResponse(&Res{}), stream.Err()
}

func clients(ctx context.Context, c *connect.Client[Req, Res]) error {
	bidi := c.CallBidiStream(ctx)
	bidi.Send(&Req{}) // want `send \(\*connect.BidiStreamForClient\).Send: \(\*connect.BidiStreamForClient\).Send$`
	bidi.Receive()
	bidi.CloseRequest()
	up := c.CallClientStream(ctx)
	up.Send(&Req{}) // want `send \(\*connect.ClientStreamForClient\).Send: \(\*connect.ClientStreamForClient\).Send$`
	up.CloseAndReceive()
	down, err := c.CallServerStream(ctx, connect.NewRequest(&Req{}))
	if err != nil {
		return err
	}
	for down.Receive() {
	}
	bidiSimple, err := c.CallBidiStreamSimple(ctx)
	if err != nil {
		return err
	}
	bidiSimple.Send(&Req{}) // want `send \(\*connect.BidiStreamForClientSimple\).Send: \(\*connect.BidiStreamForClientSimple\).Send$`
	upSimple, err := c.CallClientStreamSimple(ctx)
	if err != nil {
		return err
	}
	upSimple.Send(&Req{}) // want `send \(\*connect.ClientStreamForClientSimple\).Send: \(\*connect.ClientStreamForClientSimple\).Send$`
	return nil
}

// loggingInterceptor wraps the handler conn, as interceptors do.
type loggingConn struct {
	connect.StreamingHandlerConn
}

func (c *loggingConn) Send(m any) error {
	return c.StreamingHandlerConn.Send(m) // want `send connect.StreamingHandlerConn.Send: c.StreamingHandlerConn.Send`
}
