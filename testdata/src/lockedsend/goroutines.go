package lockedsend

// A goroutine started under a lock starts with no locks held.
func goroutineUnderLockOK(h *hub) {
	h.mu.Lock()
	go func() {
		h.events <- 1
	}()
	h.mu.Unlock()
}

func goMethodUnderLockOK(h *hub) {
	h.mu.Lock()
	go h.emit(1)
	h.mu.Unlock()
}

// A function literal called where it stands runs under the caller's lock.
func closureCalledUnderLockBad(h *hub) {
	h.mu.Lock()
	func() {
		h.events <- 1
	}() // want `call to .* can block while h\.mu is held: func literal in lockedsend\.closureCalledUnderLockBad → send on h\.events.*\[audit: `
	h.mu.Unlock()
}

func (h *hub) emit(v int) { h.events <- v }
