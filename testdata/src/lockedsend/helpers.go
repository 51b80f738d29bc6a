package lockedsend

import (
	"log/slog"
	"sync"
)

func (h *hub) notify(v int) { h.events <- v }

func (h *hub) count() int { return len(h.events) }

// A lock the caller holds across a call counts.
func helperSendsBad(h *hub) {
	h.mu.Lock()
	h.notify(1) // want `call to h\.notify can block while h\.mu is held: \(\*lockedsend\.hub\)\.notify → send on h\.events; every goroutine that needs h\.mu waits for the channel's receiver.*\[audit: `
	h.mu.Unlock()
}

func helperQuietOK(h *hub) {
	h.mu.Lock()
	_ = h.count()
	h.mu.Unlock()
}

// flushLocked is called with h.mu held and drops it before it sends.
func (h *hub) flushLocked(v int) {
	h.mu.Unlock()
	h.events <- v
	h.mu.Lock()
}

func helperUnlocksFirstOK(h *hub) {
	h.mu.Lock()
	h.flushLocked(1)
	h.mu.Unlock()
}

func (h *hub) relay(v int) { h.notify(v) }

// A different lock from helperSendsBad's, so a root of its own: see
// dedupe for one lock reaching one send along several chains.
func chainBad(h *hub) {
	h.rw.Lock()
	h.relay(1) // want `call to h\.relay can block while h\.rw is held: \(\*lockedsend\.hub\)\.relay → \(\*lockedsend\.hub\)\.notify → send on h\.events.*\[audit: `
	h.rw.Unlock()
}

// ping and pong recurse without sending; tick and tock recurse and send.
func (h *hub) ping(n int) {
	if n > 0 {
		h.pong(n - 1)
	}
}

func (h *hub) pong(n int) { h.ping(n) }

func cycleOK(h *hub) {
	h.mu.Lock()
	h.ping(3)
	h.mu.Unlock()
}

func (h *hub) tick(n int) {
	if n > 0 {
		h.tock(n - 1)
	}
}

func (h *hub) tock(n int) {
	h.tick(n)
	h.events <- n
}

func cycleBad(h *hub) {
	h.mu.Lock()
	h.ping(1)
	h.tick(3) // want `call to h\.tick can block while h\.mu is held: \(\*lockedsend\.hub\)\.tick → \(\*lockedsend\.hub\)\.tock → send on h\.events.*\[audit: `
	h.mu.Unlock()
}

type sink interface{ Put(int) }

// Interface calls and logging are not sends.
func interfaceAndLoggingOK(h *hub, s sink, log *slog.Logger) {
	h.mu.Lock()
	s.Put(1)
	log.Info("put", "n", 1)
	h.mu.Unlock()
}

func onceBad(h *hub, once *sync.Once) {
	h.mu.Lock()
	once.Do(func() { h.events <- 1 }) // want `call to once\.Do can block while h\.mu is held: \(\*sync\.Once\)\.Do → func literal in lockedsend\.onceBad → send on h\.events.*\[audit: `
	h.mu.Unlock()
}

func onceOK(h *hub, once *sync.Once) {
	h.mu.Lock()
	once.Do(func() { h.events = make(chan int, 1) })
	h.mu.Unlock()
}

// submit sends on the queue its caller passes, if any.
func (h *hub) submit(tq chan<- int, v int) {
	if tq != nil {
		tq <- v
	}
}

func nilQueueOK(h *hub) {
	h.mu.Lock()
	h.submit(nil, 1)
	h.mu.Unlock()
}

func queueBad(h *hub, tq chan<- int) {
	h.mu.Lock()
	h.submit(tq, 1) // want `call to h\.submit can block while h\.mu is held: \(\*lockedsend\.hub\)\.submit → send on tq.*\[audit: `
	h.mu.Unlock()
}

func (h *hub) forward(tq chan<- int) { h.submit(tq, 2) }

func forwardNilOK(h *hub) {
	h.mu.Lock()
	h.forward(nil)
	h.mu.Unlock()
}

// submitAndNotify blocks on h.events whatever its caller passes.
func (h *hub) submitAndNotify(tq chan<- int, v int) {
	h.submit(tq, v)
	h.notify(v)
}

func nilQueueStillBlocksBad(h *hub) {
	h.pmu.Lock()
	h.submitAndNotify(nil, 1) // want `call to h\.submitAndNotify can block while h\.pmu is held: \(\*lockedsend\.hub\)\.submitAndNotify → \(\*lockedsend\.hub\)\.notify → send on h\.events.*\[audit: `
	h.pmu.Unlock()
}
