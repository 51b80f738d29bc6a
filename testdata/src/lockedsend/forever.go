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

// A verify round's lock orders its votes, and is taken nowhere else: the
// vote that reaches the quorum sends the round to the node's loop, which
// returns on shutdown. That send can block forever, and baresend reports
// it; the lock then holds up only the other votes of the same round, on
// their way to the same send, and the send's fix is theirs.
type quorumNode struct {
	verify chan *quorumRound
	stop   chan struct{}
}

type quorumRound struct {
	mu     sync.Mutex
	votes  int
	notify chan *quorumRound
}

func newQuorumNode() *quorumNode {
	n := &quorumNode{verify: make(chan *quorumRound), stop: make(chan struct{})}
	go n.loop()
	return n
}

func (n *quorumNode) loop() {
	for {
		select {
		case r := <-n.verify:
			_ = r
		case <-n.stop:
			return
		}
	}
}

func (n *quorumNode) round() *quorumRound { return &quorumRound{notify: n.verify} }

func (r *quorumRound) voteAudit() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.notify == nil {
		return
	}
	if r.votes++; r.votes >= 2 {
		r.notify <- r // want `send on r\.notify can block while r\.mu is held: every goroutine that needs r\.mu waits for the channel's receiver \[audit: r\.mu is taken only in \(\*quorumRound\)\.voteAudit, around this send: it holds up no one but that function's other callers, and baresend reports the send itself\]`
		r.notify = nil
	}
}

// A broker that hands each subscriber its own channel and publishes to all
// of them under its lock: a subscriber that stops reading without leaving
// keeps the lock held for good, and Leave, Subscribe and every later
// Publish wait behind it.
type fanoutBroker struct {
	mu   sync.Mutex
	subs map[int]chan int
}

func (b *fanoutBroker) Subscribe(id int) <-chan int {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan int, 4)
	b.subs[id] = ch
	return ch
}

func (b *fanoutBroker) Leave(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, id)
}

func (b *fanoutBroker) Publish(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		ch <- v // want `send on ch can block forever while b\.mu is held: its receiver is the caller that \(\*fanoutBroker\)\.Subscribe hands it to, who can stop reading`
	}
}
