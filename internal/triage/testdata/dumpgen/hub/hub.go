// Package hub is a small fan-out hub that wedges the way a router does: one
// sender goroutine forwards every message to every client while it holds
// the hub's lock, so one client that stops reading stops the sender, every
// publisher behind it, and everyone who wants the lock.
package hub

import "sync"

// Hub fans messages out to its clients.
type Hub struct {
	mu      sync.Mutex
	clients []chan string
	queue   chan string
	stats   sync.RWMutex
}

// New returns a hub with a small queue.
func New() *Hub {
	return &Hub{queue: make(chan string, 2)}
}

// Run is the hub's one sender.
func (h *Hub) Run() {
	for m := range h.queue {
		h.mu.Lock()
		for _, c := range h.clients {
			c <- m
		}
		h.mu.Unlock()
	}
}

// Publish queues a message for every client.
func (h *Hub) Publish(m string) {
	h.queue <- m
}

// Offer queues a message unless stop is closed first.
func (h *Hub) Offer(m string, stop chan struct{}) {
	select {
	case h.queue <- m:
	case <-stop:
	}
}

// Subscribe adds a client.
func (h *Hub) Subscribe() chan string {
	c := make(chan string, 1)
	h.mu.Lock()
	h.clients = append(h.clients, c)
	h.mu.Unlock()
	return c
}

// Count says how many clients there are.
func (h *Hub) Count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

// Report reads the statistics while Reset holds them.
func (h *Hub) Report() {
	h.stats.RLock()
	h.stats.RUnlock()
}

// Reset holds the statistics until release is closed.
func (h *Hub) Reset(release chan struct{}) {
	h.stats.Lock()
	<-release
	h.stats.Unlock()
}

// Slow is a queue that moves: a consumer takes one message every tick.
type Slow struct {
	queue chan int
}

// NewSlow returns a slow queue.
func NewSlow() *Slow { return &Slow{queue: make(chan int)} }

// Consume takes one message per call.
func (s *Slow) Consume() int { return <-s.queue }

// Produce sends n forever.
func (s *Slow) Produce(n int) {
	for {
		s.queue <- n
	}
}
