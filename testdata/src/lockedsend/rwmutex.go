package lockedsend

// readLockBad: other readers go on; a writer waits, and every reader
// after it.
func readLockBad(h *hub) {
	h.rw.RLock()
	h.events <- 1 // want `while h\.rw is held: every goroutine that needs h\.rw for writing, and every reader after it, waits .*\[audit: `
	h.rw.RUnlock()
}

func readUnlockedOK(h *hub) {
	h.rw.RLock()
	n := len(h.events)
	h.rw.RUnlock()
	h.events <- n
}

func writeLockBad(h *hub) {
	h.rw.Lock()
	h.events <- 1 // want `while h\.rw is held: every goroutine that needs h\.rw waits .*\[audit: `
	h.rw.Unlock()
}

func tryLockBad(h *hub) {
	if h.mu.TryLock() {
		h.events <- 1 // want `while h\.mu is held.*\[audit: `
		h.mu.Unlock()
	}
}

func tryLockFailedOK(h *hub) {
	if !h.mu.TryLock() {
		h.events <- 1 // the lock was not taken on this branch
		return
	}
	h.mu.Unlock()
}

func tryReadLockBad(h *hub) {
	ok := h.rw.TryRLock()
	if !ok {
		return
	}
	defer h.rw.RUnlock()
	h.events <- 1 // want `while h\.rw is held.*\[audit: `
}
