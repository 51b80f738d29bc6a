package baresend

import (
	"sync"
	"time"
)

// A pattern consumer's monitor discovers topics on each tick and queues
// what to subscribe and unsubscribe on one-slot channels that only the
// monitor itself receives from. Two ticks in a row fill a slot, and the
// second discovery blocks the one goroutine that could empty it.
type patternConsumer struct {
	ticker        *time.Ticker
	subscribeCh   chan []string
	unsubscribeCh chan []string
	closeCh       chan struct{}
}

func NewPatternConsumer() *patternConsumer {
	c := &patternConsumer{
		ticker:        time.NewTicker(time.Minute),
		subscribeCh:   make(chan []string, 1),
		unsubscribeCh: make(chan []string, 1),
		closeCh:       make(chan struct{}),
	}
	go c.monitor()
	return c
}

func (c *patternConsumer) Close() { close(c.closeCh) }

func (c *patternConsumer) monitor() {
	for {
		select {
		case <-c.closeCh:
			return
		case <-c.ticker.C:
			c.discover()
		case topics := <-c.subscribeCh:
			println(len(topics))
		case topics := <-c.unsubscribeCh:
			println(len(topics))
		}
	}
}

func (c *patternConsumer) discover() {
	c.unsubscribeCh <- nil        // want `send on c\.unsubscribeCh \(chan \[\]string, cap 1\) can block forever: its only receiver, \(\*patternConsumer\)\.monitor, is the goroutine that makes this send: once the buffer is full nothing can take from it`
	c.subscribeCh <- []string{""} // want `send on c\.subscribeCh .* its only receiver, \(\*patternConsumer\)\.monitor, is the goroutine that makes this send`
}

// A crawler's loop queues each directory's next page on its own queue,
// but only right after taking a directory from it: every way back to the
// send passes the receive, so the loop puts back at most what it took,
// and its own sends never fill the buffer. With its loop the only
// receiver, whether a send can wait is left to the audit tier.
type crawler struct {
	dirs chan string
	quit chan struct{}
}

func newCrawler(root string) *crawler {
	c := &crawler{dirs: make(chan string, 1), quit: make(chan struct{})}
	c.dirs <- root
	go c.loop()
	return c
}

func (c *crawler) Stop() { close(c.quit) }

func (c *crawler) loop() {
	for {
		select {
		case <-c.quit:
			return
		case d := <-c.dirs:
			c.nextPage(d)
		}
	}
}

func (c *crawler) nextPage(d string) {
	c.dirs <- d + "/next" // want `send on c\.dirs .*\[audit: its receiver is the sending goroutine itself, which cannot have stopped while it sends\]`
}

// A multiplexed connection's readers take turns: a Receive whose turn has
// not come parks on a channel of its own in recvWait, and the Receive
// before it wakes the next in line. Receive both receives and sends, but
// on channels other calls made, from other goroutines: each waiter is
// another goroutine, not the sender waiting for itself. Not proven.
type connMux struct {
	recvMu   sync.Mutex
	recvID   uint
	recvWait map[uint]chan struct{}
}

type muxedConn struct {
	p   *connMux
	ids []uint
}

func (c *muxedConn) Receive() {
	id := c.ids[0]
	c.ids = c.ids[1:]
	p := c.p
	p.recvMu.Lock()
	if p.recvID != id {
		ch := make(chan struct{})
		p.recvWait[id] = ch
		p.recvMu.Unlock()
		<-ch
		p.recvMu.Lock()
	}
	id++
	p.recvID = id
	ch, ok := p.recvWait[id]
	if ok {
		delete(p.recvWait, id)
	}
	p.recvMu.Unlock()
	if ok {
		ch <- struct{}{} // want `send on ch \(chan struct\{\}, unbuffered\) can block forever: .*\[audit: `
	}
}
