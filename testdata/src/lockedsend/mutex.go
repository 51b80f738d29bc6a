// Package lockedsend holds the rules of the lockedsend pass, one topic per
// file, each reported case beside a quiet one.
package lockedsend

import "sync"

type hub struct {
	mu     sync.Mutex
	pmu    *sync.Mutex
	rw     sync.RWMutex
	events chan int
	inbox  chan int
}

func sendUnderLockBad(h *hub) {
	h.mu.Lock()
	h.events <- 1 // want `send on h\.events can block while h\.mu is held: every goroutine that needs h\.mu waits for the channel's receiver.*\[audit: `
	h.mu.Unlock()
}

func sendAfterUnlockOK(h *hub) {
	h.mu.Lock()
	v := len(h.events)
	h.mu.Unlock()
	h.events <- v
}

func earlyReturnBad(h *hub, skip bool) {
	h.mu.Lock()
	if skip {
		h.mu.Unlock()
		return
	}
	h.events <- 1 // want `send on h\.events can block while h\.mu is held.*\[audit: `
	h.mu.Unlock()
}

func unlockedOnEveryPathOK(h *hub, a bool) {
	h.mu.Lock()
	if a {
		h.mu.Unlock()
	} else {
		h.mu.Unlock()
	}
	h.events <- 1
}

// A lock held on only some paths into the send is not counted.
func unlockedOnSomePathsOK(h *hub, a bool) {
	h.mu.Lock()
	if a {
		h.mu.Unlock()
	}
	h.events <- 1
	if !a {
		h.mu.Unlock()
	}
}

func pointerMutexBad(h *hub) {
	h.pmu.Lock()
	h.events <- 1 // want `while h\.pmu is held.*\[audit: `
	h.pmu.Unlock()
}

// mu and h.mu are two spellings of one mutex.
func twoSpellingsOK(h *hub) {
	mu := &h.mu
	mu.Lock()
	h.mu.Unlock()
	h.events <- 1
}

func twoLocksBad(h *hub) {
	h.mu.Lock()
	h.pmu.Lock()
	h.events <- 1 // want `while h\.mu and h\.pmu are held: every goroutine that needs h\.mu or h\.pmu waits.*\[audit: `
	h.pmu.Unlock()
	h.mu.Unlock()
}

func lockInLoopOK(h *hub, xs []int) {
	for _, x := range xs {
		h.mu.Lock()
		h.mu.Unlock()
		h.events <- x
	}
}

func lockInLoopBad(h *hub, xs []int) {
	for _, x := range xs {
		h.mu.Lock()
		h.events <- x // want `while h\.mu is held.*\[audit: `
		h.mu.Unlock()
	}
}

var registry struct {
	sync.Mutex
	updates chan string
}

func globalBad(name string) {
	registry.Lock()
	defer registry.Unlock()
	registry.updates <- name // want `send on registry\.updates can block while registry is held.*\[audit: `
}
