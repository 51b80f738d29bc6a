package carriers

import (
	"connectrpc.com/connect"
	"google.golang.org/grpc"
)

// forward sometimes receives stream.Send and sometimes a local func: a
// parameter that may hold a send holds one.
func forward(send func(*Msg) error, m *Msg) error {
	return send(m) // want `send grpc.ServerStreamingServer.Send: send, which holds stream.Send taken at params.go:15`
}

func forwardFromStream(stream grpc.ServerStreamingServer[Msg]) error {
	return forward(stream.Send, &Msg{})
}

func forwardElsewhere() error {
	return forward(func(*Msg) error { return nil }, &Msg{})
}

// only ever receives a func that is not a send.
func apply(f func(*Msg) error) error {
	return f(&Msg{}) // ok: no caller passes a send
}

func useApply() error { return apply(func(*Msg) error { return nil }) }

// senderOf returns a method value; its callers call it.
func senderOf(stream *connect.BidiStream[Msg, Msg]) func(*Msg) error {
	return stream.Send
}

func callReturned(stream *connect.BidiStream[Msg, Msg]) error {
	send := senderOf(stream)
	return send(&Msg{}) // want `send \(\*connect.BidiStream\).Send: stream.Send, a method value taken at params.go:31`
}

func pairOf(stream *connect.BidiStream[Msg, Msg]) (func(*Msg) error, error) {
	return stream.Send, nil
}

func callExtracted(stream *connect.BidiStream[Msg, Msg]) error {
	send, err := pairOf(stream)
	if err != nil {
		return err
	}
	return send(&Msg{}) // want `send \(\*connect.BidiStream\).Send: stream.Send, a method value taken at params.go:40`
}

// A package-level hook set from a handler.
var hook func(*Msg) error

func setHook(stream grpc.ServerStreamingServer[Msg]) { hook = stream.Send }

func fireHook() {
	hook(&Msg{}) // want `send grpc.ServerStreamingServer.Send: hook, which holds stream.Send taken at params.go:54`
}

// A closure passed as an argument is not a method value, even when its body
// sends: the send is reported in its body.
func wrapper(stream grpc.ServerStreamingServer[Msg]) error {
	return forwardNoSend(func(m *Msg) error {
		return stream.Send(m) // want `send grpc.ServerStreamingServer.Send: stream.Send`
	})
}

func forwardNoSend(f func(*Msg) error) error {
	return f(&Msg{}) // ok: f holds a closure, not a method value
}

// Generic helpers keep their parameter flow through instantiation.
func forwardGeneric[M any](send func(*M) error, m *M) error {
	return send(m) // want `send grpc.ServerStreamingServer.Send: send, which holds stream.Send taken at params.go:78`
}

func useForwardGeneric(stream grpc.ServerStreamingServer[Msg]) error {
	return forwardGeneric(stream.Send, &Msg{})
}
