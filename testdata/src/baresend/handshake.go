package baresend

import "context"

// pipe hands each write to one reader and waits for the count it read: a
// handshake in which each side waits for the other with a plain receive.
type pipe struct {
	wrCh chan []byte
	rdCh chan int
}

func (p *pipe) write(b []byte) int {
	p.wrCh <- b // ok: the only receiver, read, waits for it
	return <-p.rdCh
}

func (p *pipe) read(buf []byte) int {
	b := <-p.wrCh
	n := copy(buf, b)
	p.rdCh <- n // ok: the only receiver, write, waits for it
	return n
}

// call is a request whose caller may stop waiting for the answer.
type call struct {
	done chan error
}

func (c *call) finishBad(err error) {
	c.done <- err // want `send on c.done \(chan error, unbuffered\) can block forever: no liveness case \(ctx.Done\(\), a stop channel\) lets it give up`
}

func (c *call) wait(ctx context.Context) error {
	select {
	case err := <-c.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func newCall() *call { return &call{done: make(chan error)} }
