// Package lib is a dependency whose summaries reach package lockedsend as
// facts.
package lib

import "connectrpc.com/connect"

// Queue hands values to a consumer goroutine over an unbuffered channel.
type Queue struct {
	ch chan int
}

func NewQueue() *Queue { return &Queue{ch: make(chan int)} }

func (q *Queue) Publish(v int) { q.push(v) } // want Publish:`blocks: \(\*lib\.Queue\)\.push → send on q\.ch`

func (q *Queue) push(v int) { q.ch <- v } // want push:`blocks: send on q\.ch`

func (q *Queue) Len() int { return len(q.ch) }

type Msg struct{}

// Relay forwards to a stream through the Send it keeps.
type Relay struct {
	Out func(*Msg) error // want Out:`carries field <- s\.Send`
}

func NewRelay(s *connect.ServerStream[Msg]) *Relay { return &Relay{Out: s.Send} }

func (r *Relay) Forward(m *Msg) error { return r.Out(m) } // want Forward:`blocks: stream send through r\.Out \(holds s\.Send, taken at lib\.go:\d+\)`

// Enqueue sends on the queue its caller passes, if any.
func Enqueue(q chan<- int, v int) { // want Enqueue:`blocks: send on q unless parameter 0 is nil`
	if q != nil {
		q <- v
	}
}
