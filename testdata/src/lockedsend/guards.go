package lockedsend

import (
	"context"
	"sync"
)

// A call under a lock that reaches a send, after a test of a shutdown
// flag made under the same lock: when whatever stops the send's receiver
// runs only after the flag is set under that lock, the receiver is still
// running while the caller holds it, and the send waits only for it to
// get there. That is backpressure, the audit tier; the same call without
// the test, or with a flag set after the stop, can block forever.

// chunkConsumer's events loop stops on a close request, which Close
// sends only after it closes the chunk map (closed = true under its mu).
// Its events channel is unbuffered: with a buffer, an ack sent after the
// close request would wait for good only behind more acks than the
// buffer holds, which is the audit tier whatever the lock (see
// baresend's stoprequest.go).
type chunkConsumer struct {
	events  chan any
	closeCh chan struct{}
	chunks  *chunkMap
}

type chunkAck struct{ id int }

type chunkClose struct{ done chan struct{} }

func NewChunkConsumer() *chunkConsumer {
	pc := &chunkConsumer{events: make(chan any), closeCh: make(chan struct{})}
	pc.chunks = &chunkMap{pc: pc}
	go pc.loop()
	return pc
}

func (pc *chunkConsumer) loop() {
	for {
		select {
		case <-pc.closeCh:
			return
		case ev := <-pc.events:
			switch v := ev.(type) {
			case *chunkAck:
			case *chunkClose:
				pc.internalClose(v)
				return
			}
		}
	}
}

func (pc *chunkConsumer) internalClose(req *chunkClose) {
	defer close(req.done)
	close(pc.closeCh)
}

func (pc *chunkConsumer) Close() {
	pc.chunks.Close()
	req := &chunkClose{done: make(chan struct{})}
	pc.events <- req
	<-req.done
}

func (pc *chunkConsumer) ack(id int) {
	pc.events <- &chunkAck{id: id}
}

type chunkMap struct {
	mu     sync.Mutex
	closed bool
	pc     *chunkConsumer
}

func (m *chunkMap) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
}

func (m *chunkMap) discard(id int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.pc.ack(id) // want `call to m.pc.ack can block while m.mu is held: .* \[audit: no receiver of it is seen to need the lock\]`
}

// bareChunkMap discards without the test: its consumer may be closed.
type bareChunkMap struct {
	mu sync.Mutex
	pc *chunkConsumer
}

func (m *bareChunkMap) discard(id int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pc.ack(id) // want `call to m.pc.ack can block forever while m.mu is held: \(\*lockedsend.chunkConsumer\).ack → send on pc.events; its receiver \(\*chunkConsumer\).loop can stop receiving`
}

// lateConsumer's Close sends the close request before it closes the
// map, and without its lock: a discard that tests closed under the lock
// can run after the loop is gone. Unbuffered, as chunkConsumer is.
type lateConsumer struct {
	events  chan any
	closeCh chan struct{}
	chunks  *lateMap
}

func NewLateConsumer() *lateConsumer {
	pc := &lateConsumer{events: make(chan any), closeCh: make(chan struct{})}
	pc.chunks = &lateMap{pc: pc}
	go pc.loop()
	return pc
}

func (pc *lateConsumer) loop() {
	for {
		select {
		case <-pc.closeCh:
			return
		case ev := <-pc.events:
			switch v := ev.(type) {
			case *chunkAck:
			case *chunkClose:
				pc.internalClose(v)
				return
			}
		}
	}
}

func (pc *lateConsumer) internalClose(req *chunkClose) {
	defer close(req.done)
	close(pc.closeCh)
}

func (pc *lateConsumer) Close() {
	req := &chunkClose{done: make(chan struct{})}
	pc.events <- req
	<-req.done
	pc.chunks.Close()
}

func (pc *lateConsumer) ack(id int) {
	pc.events <- &chunkAck{id: id}
}

type lateMap struct {
	mu     sync.Mutex
	closed bool
	pc     *lateConsumer
}

func (m *lateMap) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
}

func (m *lateMap) discard(id int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.pc.ack(id) // want `call to m.pc.ack can block forever while m.mu is held: \(\*lockedsend.lateConsumer\).ack → send on pc.events; its receiver \(\*lateConsumer\).loop can stop receiving`
}

// topic tests its own closed flag before it asks the discoverer, whose
// loop stops on a context of its own: the flag orders nothing about that
// loop, and the call can block forever while mux is held.
type discoverer struct {
	q   chan string
	ctx context.Context
}

func NewDiscoverer(ctx context.Context) *discoverer {
	d := &discoverer{q: make(chan string, 32), ctx: ctx}
	go d.loop()
	return d
}

func (d *discoverer) loop() {
	for {
		select {
		case <-d.q:
		case <-d.ctx.Done():
			return
		}
	}
}

func (d *discoverer) discover(topic string) {
	d.q <- topic
}

type topic struct {
	mux    sync.RWMutex
	closed bool
	d      *discoverer
	done   chan struct{}
}

func (t *topic) Close() {
	t.mux.Lock()
	defer t.mux.Unlock()
	t.closed = true
	close(t.done)
}

func (t *topic) subscribe() {
	t.mux.RLock()
	defer t.mux.RUnlock()
	if t.closed {
		return
	}
	t.d.discover("t") // want `call to t.d.discover can block forever while t.mux is held: \(\*lockedsend.discoverer\).discover → send on d.q; its receiver \(\*discoverer\).loop can stop receiving`
}
