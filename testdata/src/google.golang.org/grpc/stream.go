// Package grpc stubs the stream surface of google.golang.org/grpc that the
// fixtures use. Method sets match grpc v1.85.0; bodies are placeholders.
package grpc

import (
	"context"

	"google.golang.org/grpc/metadata"
)

// Stream is the deprecated common interface of client and server streams.
//
// Deprecated: See ClientStream and ServerStream documentation instead.
type Stream interface {
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}

// ServerStream is the server side of a streaming RPC. SendMsg blocks on
// HTTP/2 flow control and is not safe to call from several goroutines.
type ServerStream interface {
	SetHeader(metadata.MD) error
	SendHeader(metadata.MD) error
	SetTrailer(metadata.MD)
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}

// ClientStream is the client side of a streaming RPC.
type ClientStream interface {
	Header() (metadata.MD, error)
	Trailer() metadata.MD
	CloseSend() error
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}

// ServerStreamingClient is the client side of a server-streaming RPC.
type ServerStreamingClient[Res any] interface {
	Recv() (*Res, error)
	ClientStream
}

// ServerStreamingServer is the server side of a server-streaming RPC.
type ServerStreamingServer[Res any] interface {
	Send(*Res) error
	ServerStream
}

// ClientStreamingClient is the client side of a client-streaming RPC.
type ClientStreamingClient[Req any, Res any] interface {
	Send(*Req) error
	CloseAndRecv() (*Res, error)
	ClientStream
}

// ClientStreamingServer is the server side of a client-streaming RPC.
type ClientStreamingServer[Req any, Res any] interface {
	Recv() (*Req, error)
	SendAndClose(*Res) error
	ServerStream
}

// BidiStreamingClient is the client side of a bidirectional RPC.
type BidiStreamingClient[Req any, Res any] interface {
	Send(*Req) error
	Recv() (*Res, error)
	ClientStream
}

// BidiStreamingServer is the server side of a bidirectional RPC.
type BidiStreamingServer[Req any, Res any] interface {
	Recv() (*Req, error)
	Send(*Res) error
	ServerStream
}

// GenericServerStream adapts a ServerStream to the typed interfaces.
type GenericServerStream[Req any, Res any] struct {
	ServerStream
}

func (x *GenericServerStream[Req, Res]) Send(m *Res) error { return x.ServerStream.SendMsg(m) }

func (x *GenericServerStream[Req, Res]) SendAndClose(m *Res) error { return x.ServerStream.SendMsg(m) }

func (x *GenericServerStream[Req, Res]) Recv() (*Req, error) {
	m := new(Req)
	if err := x.ServerStream.RecvMsg(m); err != nil {
		return nil, err
	}
	return m, nil
}

// GenericClientStream adapts a ClientStream to the typed interfaces.
type GenericClientStream[Req any, Res any] struct {
	ClientStream
}

func (x *GenericClientStream[Req, Res]) Send(m *Req) error { return x.ClientStream.SendMsg(m) }

func (x *GenericClientStream[Req, Res]) Recv() (*Res, error) {
	m := new(Res)
	if err := x.ClientStream.RecvMsg(m); err != nil {
		return nil, err
	}
	return m, nil
}

func (x *GenericClientStream[Req, Res]) CloseAndRecv() (*Res, error) {
	if err := x.ClientStream.CloseSend(); err != nil {
		return nil, err
	}
	m := new(Res)
	if err := x.ClientStream.RecvMsg(m); err != nil {
		return nil, err
	}
	return m, nil
}
