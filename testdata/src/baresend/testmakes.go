package baresend

import "context"

// A field that a test fills with a channel of its own: in the code that
// ships, it holds only the channels its constructor makes, and the
// finding speaks of those (testmakes_test.go makes an unbuffered one).
type inbox struct{ mail chan string }

func newInbox(ctx context.Context) *inbox {
	in := &inbox{mail: make(chan string, 4)}
	go in.read(ctx)
	return in
}

func (in *inbox) read(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-in.mail:
			_ = m
		}
	}
}

func (in *inbox) Deliver(m string) {
	in.mail <- m // want `send on in\.mail \(chan string, cap 4\) can block forever: its receiver \(\*inbox\)\.read can stop receiving`
}
