package baresend

import "context"

// A non-blocking receive before a send keeps only the latest value in a
// buffered channel: it makes room for the send. On an unbuffered channel
// it makes none, and the send still waits for a receiver.

// latest keeps one pending value for a watcher started with it.
type latest struct {
	buffered   chan int
	unbuffered chan int
}

func newLatest(ctx context.Context) *latest {
	l := &latest{buffered: make(chan int, 1), unbuffered: make(chan int)}
	go l.watch(ctx)
	return l
}

func (l *latest) watch(ctx context.Context) {
	for {
		select {
		case v := <-l.buffered:
			println(v)
		case v := <-l.unbuffered:
			println(v)
		case <-ctx.Done():
			return
		}
	}
}

func (l *latest) publishLatestOK(v int) {
	select {
	case <-l.buffered:
	default:
	}
	l.buffered <- v // ok: the drain above made room
}

func (l *latest) publishDrainedUnbufferedBad(v int) {
	select {
	case <-l.unbuffered:
	default:
	}
	l.unbuffered <- v // want `send on l.unbuffered \(chan int, unbuffered\) can block forever: its receiver \(\*latest\).watch can stop receiving`
}
