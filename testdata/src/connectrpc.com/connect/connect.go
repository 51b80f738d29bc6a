// Package connect stubs the stream surface of connectrpc.com/connect that the
// fixtures use. Method sets match connect v1.21.1; bodies are placeholders.
package connect

import "net/http"

type sender interface{ Send(any) error }

type receiver interface{ Receive(any) error }

// BidiStream is the handler's view of a bidirectional stream. Send is not
// safe for concurrent use.
type BidiStream[Req, Res any] struct {
	conn interface {
		sender
		receiver
	}
}

func (b *BidiStream[Req, Res]) Send(msg *Res) error { return b.conn.Send(msg) }

func (b *BidiStream[Req, Res]) Receive() (*Req, error) {
	var req Req
	if err := b.conn.Receive(&req); err != nil {
		return nil, err
	}
	return &req, nil
}

func (b *BidiStream[Req, Res]) RequestHeader() http.Header { return nil }

func (b *BidiStream[Req, Res]) ResponseHeader() http.Header { return nil }

// ServerStream is the handler's view of a server-streaming RPC.
type ServerStream[Res any] struct {
	conn sender
}

func (s *ServerStream[Res]) Send(msg *Res) error { return s.conn.Send(msg) }

func (s *ServerStream[Res]) ResponseHeader() http.Header { return nil }

// ClientStream is the handler's view of a client-streaming RPC.
type ClientStream[Req any] struct {
	conn receiver
	msg  *Req
	err  error
}

func (c *ClientStream[Req]) Receive() bool { return c.err == nil }

func (c *ClientStream[Req]) Msg() *Req { return c.msg }

func (c *ClientStream[Req]) Err() error { return c.err }

// BidiStreamForClient is the client's view of a bidirectional stream.
type BidiStreamForClient[Req, Res any] struct {
	conn interface {
		sender
		receiver
	}
}

func (b *BidiStreamForClient[Req, Res]) Send(msg *Req) error { return b.conn.Send(msg) }

func (b *BidiStreamForClient[Req, Res]) Receive() (*Res, error) {
	var res Res
	if err := b.conn.Receive(&res); err != nil {
		return nil, err
	}
	return &res, nil
}

func (b *BidiStreamForClient[Req, Res]) CloseRequest() error { return nil }

func (b *BidiStreamForClient[Req, Res]) CloseResponse() error { return nil }

// ClientStreamForClient is the client's view of a client-streaming RPC.
type ClientStreamForClient[Req, Res any] struct {
	conn sender
}

func (c *ClientStreamForClient[Req, Res]) Send(request *Req) error { return c.conn.Send(request) }

func (c *ClientStreamForClient[Req, Res]) CloseAndReceive() (*Response[Res], error) {
	return nil, nil
}

// ClientStreamForClientSimple is the client's view of a client-streaming
// RPC whose CloseAndReceive returns the bare response message.
type ClientStreamForClientSimple[Req, Res any] struct {
	stream *ClientStreamForClient[Req, Res]
}

func (c *ClientStreamForClientSimple[Req, Res]) Send(request *Req) error {
	return c.stream.Send(request)
}

func (c *ClientStreamForClientSimple[Req, Res]) CloseAndReceive() (*Res, error) { return nil, nil }

// BidiStreamForClientSimple is the client's view of a bidirectional RPC
// whose messages carry no connect wrappers.
type BidiStreamForClientSimple[Req, Res any] struct {
	stream *BidiStreamForClient[Req, Res]
}

func (b *BidiStreamForClientSimple[Req, Res]) Send(msg *Req) error { return b.stream.Send(msg) }

func (b *BidiStreamForClientSimple[Req, Res]) Receive() (*Res, error) { return b.stream.Receive() }

func (b *BidiStreamForClientSimple[Req, Res]) CloseRequest() error { return nil }

// Spec and Peer describe an RPC and its remote end.
type Spec struct{ Procedure string }

type Peer struct{ Addr string }

// StreamingHandlerConn is the server's connection for a streaming RPC, as
// seen by interceptors.
type StreamingHandlerConn interface {
	Spec() Spec
	Peer() Peer

	Receive(any) error
	RequestHeader() http.Header

	Send(any) error
	ResponseHeader() http.Header
	ResponseTrailer() http.Header
}

// StreamingClientConn is the client's connection for a streaming RPC, as
// seen by interceptors.
type StreamingClientConn interface {
	Spec() Spec
	Peer() Peer

	Send(any) error
	RequestHeader() http.Header
	CloseRequest() error

	Receive(any) error
	ResponseHeader() http.Header
	ResponseTrailer() http.Header
	CloseResponse() error
}

// ServerStreamForClient is the client's view of a server-streaming RPC.
type ServerStreamForClient[Res any] struct {
	msg *Res
	err error
}

func (s *ServerStreamForClient[Res]) Receive() bool { return s.err == nil }

func (s *ServerStreamForClient[Res]) Msg() *Res { return s.msg }

func (s *ServerStreamForClient[Res]) Close() error { return nil }

// Request and Response wrap unary messages.
type Request[T any] struct{ Msg *T }

type Response[T any] struct{ Msg *T }

// NewRequest wraps a message.
func NewRequest[T any](message *T) *Request[T] { return &Request[T]{Msg: message} }

// NewResponse wraps a message.
func NewResponse[T any](message *T) *Response[T] { return &Response[T]{Msg: message} }

// Code is an RPC status code.
type Code uint32

const (
	CodeCanceled    Code = 1
	CodeUnavailable Code = 14
)

// Error is an RPC error with a code.
type Error struct {
	code Code
	err  error
}

func (e *Error) Error() string { return e.err.Error() }

// NewError wraps err with a code.
func NewError(c Code, underlying error) *Error { return &Error{code: c, err: underlying} }
