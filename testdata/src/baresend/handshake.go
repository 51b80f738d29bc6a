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
	c.done <- err // want `send on c.done \(chan error, unbuffered\) can block forever: .* \[audit: its receiver \(\*call\).wait can stop waiting, but may run again for the same channel\]`
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

// conn answers requests through one-shot reply slots: each request gets a
// fresh channel with room for its answer, taken out of the registry before
// it is answered.
type conn struct {
	pending map[int]chan string
	calls   map[int]*request
}

// request is one call waiting for its answer.
type request struct{ reply chan error }

func (c *conn) register(id int) chan string {
	slot := make(chan string, 1)
	c.pending[id] = slot
	return slot
}

func (c *conn) answerOK(id int, res string) {
	slot, ok := c.pending[id]
	delete(c.pending, id)
	if ok {
		slot <- res // ok: a fresh slot with room, answered once
	}
}

func (c *conn) answerKeptBad(id int, res string) {
	slot := c.pending[id]
	slot <- res // want `send on slot \(chan string, cap 1\) can block forever.*\[audit: `
}

// failAllOK fails every request at once when the connection drops, each
// taken out of the registry before its answer.
func (c *conn) failAllOK() {
	for id, slot := range c.pending {
		delete(c.pending, id)
		slot <- "closed" // ok: a fresh slot with room, answered once
	}
}

func (c *conn) failAllKeptBad() {
	for _, slot := range c.pending {
		slot <- "closed" // want `send on slot \(chan string, cap 1\) can block forever.*\[audit: `
	}
}

func (c *conn) start(id int) *request {
	r := &request{reply: make(chan error, 1)}
	c.calls[id] = r
	return r
}

func (c *conn) finishOK(id int, err error) {
	r := c.calls[id]
	delete(c.calls, id)
	r.reply <- err // ok: the request's own slot, taken out of the registry first
}

// notifier tells its one watcher that the connection closed, once.
type notifier struct {
	closed    bool
	closedCh  chan bool
	verdictCh chan bool
	eventCh   chan bool
}

func newNotifier() *notifier {
	return &notifier{closedCh: make(chan bool, 1), verdictCh: make(chan bool, 1), eventCh: make(chan bool, 1)}
}

func (n *notifier) closeOnceOK() {
	if n.closed {
		return
	}
	n.closed = true
	n.closedCh <- true // ok: the flag lets one value into the slot made for it
}

func (n *notifier) verdictOnceOK(v bool) {
	if n.verdictCh == nil {
		return
	}
	n.verdictCh <- v // ok: the field is cleared after the one value
	n.verdictCh = nil
}

func (n *notifier) eventOnceOK() {
	n.eventCh <- true // ok: one value per notifier fits the slot made with it
}

// feed is a per-client queue: its channel carries many values.
type feed struct{ out chan int }

func newFeed() *feed { return &feed{out: make(chan int, 1)} }

func (f *feed) publishAllBad(vs []int) {
	for _, v := range vs {
		f.out <- v // want `send on f.out \(chan int, cap 1\) can block forever.*\[audit: `
	}
}

// duplex pairs each write with the reader's count of what it took: the
// writer asks on reqs and then waits for the answer with a plain receive,
// so the reader's answer always meets it; the writer's way out on done
// comes before it asks.
type duplex struct {
	reqs    chan []byte
	answers chan int
	done    chan struct{}
}

func (d *duplex) read(b []byte) int {
	select {
	case bw := <-d.reqs:
		n := copy(b, bw)
		d.answers <- n // ok: the writer that asked waits for this answer
		return n
	case <-d.done:
		return 0
	}
}

func (d *duplex) write(b []byte) int {
	n := 0
	for once := true; once || len(b) > 0; once = false {
		select {
		case d.reqs <- b:
			nw := <-d.answers
			b = b[nw:]
			n += nw
		case <-d.done:
			return n
		}
	}
	return n
}

func (d *duplex) close() { close(d.done) }
