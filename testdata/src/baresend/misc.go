package baresend

import "context"

func closeIsNotASendOK(c *client) {
	close(c.responses) // ok: close never blocks on a receiver
}

func generator(n int) <-chan int {
	ch := make(chan int)
	go func() {
		for i := 0; i < n; i++ {
			ch <- i // ok: a generator's reader is its caller; see doc.go for the policy
		}
		close(ch)
	}()
	return ch
}

func fromCallOK(get func() chan int) {
	get() <- 1 // ok: a channel from a call is not followed
}

func suppressedOK(c *client, r Response) {
	//sendlint:ignore baresend the reply channel is drained by the client's own loop until exit
	c.responses <- r
	c.responses <- r //sendlint:ignore baresend same reason, on the line itself
}

func unusedDirective(c *client) {
	//sendlint:ignore baresend nothing below can block // want `//sendlint:ignore directive suppresses no baresend finding`
	close(c.responses)
}

// pool hands out one shared buffer at a time; the channel is its mutex.
type pool struct{ buf chan []byte }

func (p *pool) useTokenOK() {
	b := <-p.buf
	b = append(b[:0], "work"...)
	p.buf <- b // ok: puts back the token taken above
}

func (p *pool) refillBad(b []byte) {
	p.buf <- b // want `send on p.buf .* can block forever.*\[audit: its receiver \(\*pool\).tryUse can stop waiting, but may run again`
}

func (p *pool) tryUse(ctx context.Context) {
	select {
	case b := <-p.buf:
		p.buf <- b // ok: puts back the token taken in this case
	case <-ctx.Done():
	}
}
