// Package events fans events out to gRPC subscribers, with the real
// google.golang.org/grpc stream types.
package events

import (
	"sync"

	"google.golang.org/grpc"
)

type Event struct{ Name string }

// Broadcaster writes each event to every subscriber inline, under mu.
type Broadcaster struct {
	mu   sync.Mutex
	subs []grpc.ServerStreamingServer[Event]
}

func (b *Broadcaster) Publish(e *Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		_ = s.Send(e) // want `stream send s\.Send can block while b\.mu is held: every goroutine that needs b\.mu waits for the peer to read`
	}
}

func (b *Broadcaster) Add(s grpc.ServerStreamingServer[Event]) {
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
}

// Reply answers on a bidi stream; callers learn that it blocks from its
// fact.
func Reply(s grpc.BidiStreamingServer[Event, Event], e *Event) error {
	return s.Send(e)
}

// Trailer writes on the stream's raw ServerStream.
func Trailer(s grpc.ServerStream, e *Event) error {
	return s.SendMsg(e)
}
