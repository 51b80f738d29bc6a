// Package lib is a dependency whose functions take streams and func values:
// the facts it exports say what each does with them.
package lib

import (
	"sync"

	"google.golang.org/grpc"
)

// Reply sends on the stream it is given, on the caller's goroutine.
func Reply(stream grpc.ServerStream, m any) error { // want Reply:"sync\\(0\\)"
	return stream.SendMsg(m)
}

// Pump starts a goroutine that sends everything from out on stream.
func Pump(stream grpc.ServerStream, out <-chan any) { // want Pump:"async\\(0\\)"
	go func() {
		for m := range out {
			stream.SendMsg(m)
		}
	}()
}

// Go runs f on a goroutine of its own.
func Go(f func()) { // want Go:"async\\(0\\)"
	go f()
}

// Do runs f and returns its error.
func Do(f func() error) error { // want Do:"sync\\(0\\)"
	return f()
}

// Keep ignores f.
func Keep(f func()) {} // want Keep:"unused"

var (
	mu    sync.Mutex
	hooks []func(any) error
)

// Register keeps send for Broadcast, which any goroutine may call.
func Register(send func(any) error) { // want Register:"shared\\(0\\)"
	mu.Lock()
	hooks = append(hooks, send)
	mu.Unlock()
}

// Broadcast calls every registered send.
func Broadcast(m any) {
	mu.Lock()
	defer mu.Unlock()
	for _, h := range hooks {
		h(m)
	}
}

// Conn carries a stream; its Send is for whoever holds the Conn.
type Conn struct {
	stream grpc.ServerStream
}

func NewConn(stream grpc.ServerStream) *Conn { // want NewConn:"unused"
	return &Conn{stream: stream}
}

func (c *Conn) Send(m any) error {
	return c.stream.SendMsg(m)
}
