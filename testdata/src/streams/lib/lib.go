// Package lib keeps stream sends in exported places that a dependent
// package calls: a field, a result and a package-level variable.
package lib

import (
	"connectrpc.com/connect"
	"google.golang.org/grpc"
)

type Msg struct{}

// Router pushes to the stream it was made with.
type Router struct {
	Push func(*Msg) error // want Push:`carrier field <- stream.Send`
	Log  func(string)
}

func NewRouter(stream grpc.ServerStreamingServer[Msg]) *Router {
	return &Router{Push: stream.Send, Log: func(string) {}}
}

func SenderOf(stream *connect.BidiStream[Msg, Msg]) func(*Msg) error { // want SenderOf:`carrier result 0 <- stream.Send`
	return stream.Send
}

// Relay forwards through a func it is given; lib itself passes it a send.
func Relay(send func(*Msg) error, m *Msg) error { // want Relay:`carrier param 0 <- stream.Send`
	return send(m) // want `send grpc.ServerStreamingServer.Send: send, which holds stream.Send taken at lib.go:32`
}

func relayStream(stream grpc.ServerStreamingServer[Msg]) error {
	return Relay(stream.Send, &Msg{})
}

var Hook func(*Msg) error // want Hook:`carrier global <- s.Send`

func SetHook(s grpc.ServerStreamingServer[Msg]) { Hook = s.Send }
