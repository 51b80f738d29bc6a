package baresend

// hub broadcasts to subscribers.
type hub struct {
	subscribers map[string]*client
}

func (h *hub) broadcastBad(r Response) {
	for _, c := range h.subscribers {
		c.responses <- r // want `send on c.responses .* can block forever: the package's other send on it gives up when ctx is done, as its receivers may be gone by then, and this send has no such case; in this loop over receivers one slow receiver stalls every later one$`
	}
}

func (h *hub) broadcastWithCtxOK(r Response) {
	for _, c := range h.subscribers {
		select {
		case c.responses <- r: // ok: each client's ctx is a way out
		case <-c.ctx.Done():
		}
	}
}

func (h *hub) retryOneBad(c *client, rs []Response) {
	for _, r := range rs {
		c.responses <- r // want `send on c.responses .* can block forever: the package's other send on it gives up when ctx is done, as its receivers may be gone by then, and this send has no such case$`
	}
}
