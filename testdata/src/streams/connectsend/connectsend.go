// Package connectsend holds connect stream calls, each send beside a call
// that is not one.
package connectsend

import (
	"context"

	"connectrpc.com/connect"
)

type Req struct{}

type Res struct{}

func handlerBidi(ctx context.Context, stream *connect.BidiStream[Req, Res]) error {
	if _, err := stream.Receive(); err != nil { // ok: a receive
		return err
	}
	stream.ResponseHeader()    // ok
	return stream.Send(&Res{}) // want `send \(\*connect.BidiStream\).Send: stream.Send`
}

func handlerServerStream(ctx context.Context, req *connect.Request[Req], stream *connect.ServerStream[Res]) error {
	return stream.Send(&Res{}) // want `send \(\*connect.ServerStream\).Send: stream.Send`
}

func handlerClientStream(ctx context.Context, stream *connect.ClientStream[Req]) (*connect.Response[Res], error) {
	for stream.Receive() { // ok: a receive
		_ = stream.Msg()
	}
	return connect.NewResponse(&Res{}), stream.Err()
}

func clientStreams(
	bidi *connect.BidiStreamForClient[Req, Res],
	up *connect.ClientStreamForClient[Req, Res],
	down *connect.ServerStreamForClient[Res],
	bidiSimple *connect.BidiStreamForClientSimple[Req, Res],
	upSimple *connect.ClientStreamForClientSimple[Req, Res],
) {
	bidi.Send(&Req{})          // want `send \(\*connect.BidiStreamForClient\).Send: bidi.Send`
	bidi.Receive()             // ok: a receive
	bidi.CloseRequest()        // ok: closes, sends no message
	up.Send(&Req{})            // want `send \(\*connect.ClientStreamForClient\).Send: up.Send`
	up.CloseAndReceive()       // ok: a receive
	down.Receive()             // ok: a receive
	bidiSimple.Send(nil)       // want `send \(\*connect.BidiStreamForClientSimple\).Send: bidiSimple.Send`
	upSimple.Send(nil)         // want `send \(\*connect.ClientStreamForClientSimple\).Send: upSimple.Send`
	upSimple.CloseAndReceive() // ok: a receive
}

// Interceptors see the conns under the streams.
type loggingConn struct {
	connect.StreamingHandlerConn
}

func (c *loggingConn) Send(m any) error {
	return c.StreamingHandlerConn.Send(m) // want `send connect.StreamingHandlerConn.Send: c.StreamingHandlerConn.Send`
}

func conns(h connect.StreamingHandlerConn, c connect.StreamingClientConn, l *loggingConn) {
	h.Send(nil)      // want `send connect.StreamingHandlerConn.Send: h.Send`
	h.Receive(nil)   // ok: a receive
	c.Send(nil)      // want `send connect.StreamingClientConn.Send: c.Send`
	c.CloseRequest() // ok: closes, sends no message
	l.Send(nil)      // want `send \(\*connectsend.loggingConn\).Send: l.Send`
}

// session embeds a stream: its promoted Send is connect's.
type session struct {
	*connect.BidiStream[Req, Res]
	id string
}

func promotedSend(s *session) {
	s.Send(&Res{}) // want `send \(\*connect.BidiStream\).Send: s.BidiStream.Send`
	s.Receive()    // ok: a receive
}

// sendAll is generic over the message; the instance resolves to connect's
// generic method.
func sendAll[M any](stream *connect.ServerStream[M], ms []*M) error {
	for _, m := range ms {
		if err := stream.Send(m); err != nil { // want `send \(\*connect.ServerStream\).Send: stream.Send`
			return err
		}
	}
	return nil
}

func useSendAll(stream *connect.ServerStream[Res]) error {
	return sendAll(stream, nil) // ok: the send is reported inside
}

func methodExpression(stream *connect.BidiStream[Req, Res]) {
	(*connect.BidiStream[Req, Res]).Send(stream, &Res{}) // want `send \(\*connect.BidiStream\).Send: \(\*connect.BidiStream\).Send`
}
