// Package lib is a dependency whose summaries reach package lockedsend as
// facts.
package lib

import (
	"sync"

	"connectrpc.com/connect"
)

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

// Store guards its rows with a mutex its users lock too.
type Store struct {
	Mu   sync.Mutex
	rows []int
}

// Add takes s.Mu; the fact says so to the packages that call it.
func (s *Store) Add(v int) { // want Add:`acquires lockedsend/lib\.Store\.Mu$`
	s.Mu.Lock()
	s.rows = append(s.rows, v)
	s.Mu.Unlock()
}

// Rows takes s.Mu to read through a helper; the fact follows the call.
func (s *Store) Rows() []int { return s.snapshot() } // want Rows:`acquires lockedsend/lib\.Store\.Mu$`

func (s *Store) snapshot() []int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]int(nil), s.rows...)
}

// Cap takes no lock, and has no fact.
func (s *Store) Cap() int { return cap(s.rows) }
