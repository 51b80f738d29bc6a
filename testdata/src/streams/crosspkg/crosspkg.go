// Package crosspkg calls func values that package lib filled with stream
// sends; it learns of them through facts.
package crosspkg

import (
	"connectrpc.com/connect"

	"streams/lib"
)

func push(r *lib.Router) error {
	r.Log("push")             // ok: Log holds no send
	return r.Push(&lib.Msg{}) // want `send grpc.ServerStreamingServer.Send: r.Push, which holds stream.Send taken in a dependency`
}

func fromResult(f func(*lib.Msg) error) error {
	return f(&lib.Msg{}) // ok: nothing here passes a send to f
}

func callSenderOf(s *connect.BidiStream[lib.Msg, lib.Msg]) error {
	return lib.SenderOf(s)(&lib.Msg{}) // want `send \(\*connect.BidiStream\).Send: stream.Send, a method value taken in a dependency`
}

func hook() {
	lib.Hook(&lib.Msg{}) // want `send grpc.ServerStreamingServer.Send: Hook, which holds s.Send taken in a dependency`
}

// relay keeps lib's send in a field of its own, which becomes a carrier of
// this package in turn.
type relay struct {
	send func(*lib.Msg) error // want send:`carrier field <- stream.Send`
}

func newRelay(r *lib.Router) *relay { return &relay{send: r.Push} }

func (x *relay) forward() error {
	return x.send(&lib.Msg{}) // want `send grpc.ServerStreamingServer.Send: x.send, which holds stream.Send taken in a dependency`
}
