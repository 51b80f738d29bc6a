package baresend

import (
	"context"
	"net"
	"sync"
	"time"
)

// A packet conn multiplexes the TCP connections it is given onto one
// receive channel that its ReadFrom drains. Each connection's reader gives
// up on closedChan, since once the packet conn is closed nobody calls
// ReadFrom any more; the goroutine AddConn starts queues the connection's
// first packet with a bare send. With the buffer full when the conn is
// closed, that goroutine never gets past its send, and Close waits for it
// for ever.
type packetConn struct {
	recvChan   chan tcpPacket
	closedChan chan struct{}
	closeOnce  sync.Once
	wg         sync.WaitGroup
}

type tcpPacket struct {
	data []byte
	addr net.Addr
}

func newPacketConn(readBuffer int) *packetConn {
	return &packetConn{recvChan: make(chan tcpPacket, readBuffer), closedChan: make(chan struct{})}
}

func (t *packetConn) AddConn(conn net.Conn, first []byte) {
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		if first != nil {
			t.recvChan <- tcpPacket{first, conn.RemoteAddr()} // want `send on t\.recvChan \(chan tcpPacket, cap readBuffer\) can block forever: the package's other send on it gives up when closedChan is closed, as its receivers may be gone by then, and this send has no such case`
		}
		t.read(conn)
	}()
}

func (t *packetConn) read(conn net.Conn) {
	buf := make([]byte, 1500)
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return
		}
		select {
		case t.recvChan <- tcpPacket{append([]byte(nil), buf[:n]...), conn.RemoteAddr()}:
		case <-t.closedChan:
			return
		}
	}
}

func (t *packetConn) ReadFrom(b []byte) (int, net.Addr, error) {
	p := <-t.recvChan
	return copy(b, p.data), p.addr, nil
}

func (t *packetConn) Close() error {
	t.closeOnce.Do(func() { close(t.closedChan) })
	t.wg.Wait()
	return nil
}

// The fixed packet conn queues the first packet the way its readers queue
// the rest: quiet.
type fixedPacketConn struct {
	recvChan   chan tcpPacket
	closedChan chan struct{}
}

func (t *fixedPacketConn) AddConn(conn net.Conn, first []byte) {
	go func() {
		select {
		case t.recvChan <- tcpPacket{first, conn.RemoteAddr()}:
		case <-t.closedChan:
			return
		}
	}()
}

func (t *fixedPacketConn) ReadFrom(b []byte) (int, net.Addr, error) {
	p := <-t.recvChan
	return copy(b, p.data), p.addr, nil
}

func (t *fixedPacketConn) Close() { close(t.closedChan) }

// A session's closer sends its last word itself, on its way to closing
// the stop channel: it is the one that ends the session, so the sibling's
// reason does not apply to it. Its plain receiver (Next) is waiting as far
// as the package shows: quiet.
type session struct {
	events chan string
	done   chan struct{}
}

func (s *session) emit(e string) {
	select {
	case s.events <- e:
	case <-s.done:
	}
}

func (s *session) Close() {
	s.events <- "closed"
	close(s.done)
}

func (s *session) Next() string { return <-s.events }

// A relay's other send gives up on the upstream's stop channel, which
// belongs to another object than the relay's channel: it says nothing of
// who reads the relay's. Quiet.
type tapRelay struct {
	out chan string
	up  *upstream
}

type upstream struct{ stop chan struct{} }

func (u *upstream) Stop() { close(u.stop) }

func (r *tapRelay) forward(v string) {
	select {
	case r.out <- v:
	case <-r.up.stop:
	}
}

func (r *tapRelay) Push(v string) { r.out <- v }

func (r *tapRelay) Pull() string { return <-r.out }

// A mailbox's owner loop gives up on quit and also posts to itself: a send
// by one of the channel's receivers runs while that receiver does. Quiet.
type selfMailbox struct {
	in   chan int
	quit chan struct{}
}

func (m *selfMailbox) Post(v int) {
	select {
	case m.in <- v:
	case <-m.quit:
	}
}

func (m *selfMailbox) Stop() { close(m.quit) }

func (m *selfMailbox) loop(tick <-chan time.Time) {
	for {
		select {
		case v := <-m.in:
			println(v)
		case <-tick:
			m.in <- 0 // a reminder to itself
		}
	}
}

// A processor's sema is a counting semaphore: exec takes a token, giving
// up on quit, and each worker gives its token back when it is done.
// Shutdown takes every token to wait for the workers: its sends wait for
// holders, not for a receiver that can be gone. Quiet.
type taskProcessor struct {
	sema chan struct{}
	quit chan struct{}
}

func (p *taskProcessor) exec(work func()) {
	select {
	case <-p.quit:
		return
	case p.sema <- struct{}{}:
		go func() {
			defer func() { <-p.sema }()
			work()
		}()
	}
}

func (p *taskProcessor) stop() { close(p.quit) }

func (p *taskProcessor) shutdown() {
	p.stop()
	for i := 0; i < cap(p.sema); i++ {
		p.sema <- struct{}{}
	}
}

// A job queue's Submit gives up when its caller's context ends: that says
// the caller may stop waiting, not that the queue's reader is gone, so the
// bare send next to it has no proof.
type jobQueue struct{ jobs chan func() }

func (q *jobQueue) Submit(ctx context.Context, job func()) error {
	select {
	case q.jobs <- job:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (q *jobQueue) MustSubmit(job func()) {
	q.jobs <- job // want `send on q\.jobs \(chan func\(\)\) can block forever: no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up \[audit: no receiver of it is visible in this package\]`
}

// An event hub keeps one channel per subscriber in a map. Its broadcast
// gives up on the hub's done channel, since once the hub is closed no
// subscriber is reading; a direct notice to one subscriber does not.
type eventHub struct {
	subs map[string]chan string
	done chan struct{}
}

func (h *eventHub) Close() { close(h.done) }

func (h *eventHub) Broadcast(e string) {
	for _, c := range h.subs {
		select {
		case c <- e:
		case <-h.done:
			return
		}
	}
}

func (h *eventHub) Notify(id, e string) {
	h.subs[id] <- e // want `send on h\.subs\[id\] \(chan string\) can block forever: the package's other send on it gives up when done is closed, as its receivers may be gone by then, and this send has no such case`
}

// A ticker feed's offer gives up on stop, but only a test closes it: the
// shipped program never does, so the other send's case says nothing of
// the feed's readers. Its plain receiver is waiting as far as the
// package shows: quiet.
type tickerFeed struct {
	ticks chan int
	stop  chan struct{}
}

func NewTickerFeed() *tickerFeed {
	return &tickerFeed{ticks: make(chan int, 16), stop: make(chan struct{})}
}

func (f *tickerFeed) offer(n int) {
	select {
	case f.ticks <- n:
	case <-f.stop:
	}
}

func (f *tickerFeed) Tick(n int) {
	f.ticks <- n
}

func (f *tickerFeed) Next() int { return <-f.ticks }
