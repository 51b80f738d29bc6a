package carriers

import (
	"iter"

	"google.golang.org/grpc"
)

// box is a generic holder: its instances share the generic field.
type box[T any] struct {
	send func(*T) error
}

func (b *box[T]) set(send func(*T) error) { b.send = send }

func (b *box[T]) fire(m *T) error {
	return b.send(m) // want `send grpc.ServerStreamingServer.Send: b.send, which holds stream.Send taken at odd.go:21`
}

func fillBox(b *box[Msg], stream grpc.ServerStreamingServer[Msg]) {
	b.set(stream.Send)
}

func numbers() iter.Seq[int] {
	return func(yield func(int) bool) { yield(1) }
}

// The body of a range-over-func loop is a closure; send is captured by it.
func rangeOverFunc(stream grpc.ServerStreamingServer[Msg]) {
	send := stream.Send
	for range numbers() {
		send(&Msg{}) // want `send grpc.ServerStreamingServer.Send: send, which holds stream.Send taken at odd.go:30`
	}
}

// A defer inside a range-over-func body defers to the enclosing function.
func deferInRangeOverFunc(stream grpc.ServerStreamingServer[Msg]) {
	for range numbers() {
		defer stream.Send(&Msg{}) // want `send grpc.ServerStreamingServer.Send: stream.Send`
	}
}

func goAndDefer(stream grpc.ServerStreamingServer[Msg]) {
	go stream.Send(&Msg{}) // want `send grpc.ServerStreamingServer.Send: stream.Send`
	send := stream.Send
	defer send(&Msg{}) // want `send grpc.ServerStreamingServer.Send: stream.Send, a method value taken at odd.go:45`
}

// nilFunc calls a func variable that is never set.
func nilFunc() {
	var f func(*Msg) error
	f(nil) // ok: holds nothing
}

// recursive passes a send to itself.
func recursive(send func(*Msg) error, n int) error {
	if n == 0 {
		return send(&Msg{}) // want `send grpc.ServerStreamingServer.Send: send, which holds stream.Send taken at odd.go:64`
	}
	return recursive(send, n-1)
}

func startRecursive(stream grpc.ServerStreamingServer[Msg]) error {
	return recursive(stream.Send, 3)
}
