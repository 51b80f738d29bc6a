package lockedsend

import "context"

func selectDefaultOK(h *hub) {
	h.mu.Lock()
	select {
	case h.events <- 1:
	default:
	}
	h.mu.Unlock()
}

// A liveness case bounds the wait; the lock is held all the while.
func selectLivenessBad(ctx context.Context, h *hub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case h.events <- 1: // want `send on h\.events in a select without default can block while h\.mu is held.*\[audit: `
	case <-ctx.Done():
	}
}

func selectReceiveOnlyOK(ctx context.Context, h *hub) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case v := <-h.inbox:
		return v
	case <-ctx.Done():
		return 0
	}
}

func singleCaseSelectBad(h *hub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case h.events <- 1: // want `send on h\.events can block while h\.mu is held.*\[audit: `
	}
}
