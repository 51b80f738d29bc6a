package lockedsend

// A deferred Unlock holds the lock to the end of the function.
func deferUnlockBad(h *hub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events <- 1 // want `while h\.mu is held.*\[audit: `
}

func deferInClosureBad(h *hub) {
	h.mu.Lock()
	defer func() { h.mu.Unlock() }()
	h.events <- 1 // want `while h\.mu is held.*\[audit: `
}

func sendBeforeLockOK(h *hub) {
	h.events <- 1
	h.mu.Lock()
	defer h.mu.Unlock()
}
