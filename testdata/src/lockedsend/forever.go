package lockedsend

import "sync"

// ticker's drain stops at done while publishers may still send: a publisher
// blocked under mu then holds it forever.
type ticker struct {
	mu   sync.Mutex
	out  chan int
	done chan struct{}
}

func newTicker() *ticker {
	f := &ticker{out: make(chan int), done: make(chan struct{})}
	go f.drain()
	return f
}

func (f *ticker) drain() {
	for {
		select {
		case v := <-f.out:
			_ = v
		case <-f.done:
			return
		}
	}
}

func (f *ticker) publishForeverBad(v int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.out <- v // want `send on f\.out can block forever while f\.mu is held: its receiver \(\*ticker\)\.drain can stop receiving, and .*; every goroutine that needs f\.mu waits with it$`
}

// drainer drains until out is closed: a publisher waits for its turn, not
// forever.
type drainer struct {
	mu  sync.Mutex
	out chan int
}

func newDrainer() *drainer {
	s := &drainer{out: make(chan int)}
	go s.drain()
	return s
}

func (s *drainer) drain() {
	for v := range s.out {
		_ = v
	}
}

func (s *drainer) publishDrainedAudit(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out <- v // want `send on s\.out can block while s\.mu is held.*\[audit: no receiver of it is seen to need the lock\]`
}

// A select that also waits on f.done gives up when done is closed: the
// lock is held until then, not forever.
func (f *ticker) publishOrStopAudit(v int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case f.out <- v: // want `send on f\.out in a select without default can block while f\.mu is held.*\[audit: no receiver of it is seen to need the lock\]`
	case <-f.done:
	}
}
