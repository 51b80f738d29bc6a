package baresend

// hub broadcasts to subscribers.
type hub struct {
	subscribers map[string]*client
}

func (h *hub) broadcastBad(r Response) {
	for _, c := range h.subscribers {
		c.responses <- r // want `send on c.responses .* can block forever: no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up; in this loop over receivers one slow receiver stalls every later one.*\[audit: `
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
		c.responses <- r // want `send on c.responses .* can block forever: no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up \[audit: [^]]*\]$`
	}
}
