package baresend

// A partition consumer serves acks, seeks and its close through one
// events channel, read by one loop that returns once it takes the close
// request. The channel keeps its values in order, so every ack sent
// before Close's request is taken: only acks that race Close, or come
// after it, wait behind the request, and with ten slots more than ten of
// them must pile up before one waits for good. The acks come from a
// callback the consumer hands its ack tracker, which the pass cannot
// count: the audit tier. A send the consumer's own goroutine repeats can
// pile them up by itself, and a send with no buffer waits at the first;
// both stay. The connection's notice that it closed goes through a
// channel of its own, which the close request does not travel on: a
// notice sent after the loop returned waits for good once the slots fill.

type ackReq struct{ id uint64 }

type closeReq2 struct{ done chan struct{} }

type connLost struct{}

// ackTracker batches acks and hands each to the consumer's callback.
type ackTracker struct{ send func(id uint64) }

func newAckTracker(send func(id uint64)) *ackTracker { return &ackTracker{send: send} }

func (t *ackTracker) add(id uint64) { t.send(id) }

// partitionConn calls back when it loses the connection.
type partitionConn struct{ onClose []func() }

func (c *partitionConn) OnClose(f func()) { c.onClose = append(c.onClose, f) }

type ackConsumer struct {
	events   chan any
	connLost chan connLost
	closeCh  chan struct{}
	tracker  *ackTracker
}

func NewAckConsumer(conn *partitionConn, ticks <-chan struct{}) *ackConsumer {
	c := &ackConsumer{events: make(chan any, 10), connLost: make(chan connLost, 10), closeCh: make(chan struct{})}
	c.tracker = newAckTracker(func(id uint64) {
		c.events <- &ackReq{id: id} // want `send on c\.events \(chan any, cap 10\) can block forever: its receiver \(\*ackConsumer\)\.loop can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up \[audit: its receiver \(\*ackConsumer\)\.loop stops only once it takes a stop request from this channel, and takes every value sent before it: a send waits for good only behind more than 10 values sent after the request\]`
	})
	conn.OnClose(func() {
		c.connLost <- connLost{} // want `send on c\.connLost \(chan connLost, cap 10\) can block forever: its receiver \(\*ackConsumer\)\.loop can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
	})
	go c.loop()
	go c.flushLoop(ticks)
	return c
}

func (c *ackConsumer) loop() {
	for {
		select {
		case <-c.closeCh: // closed only by internalClose, on this goroutine
			return
		case <-c.connLost:
			c.reconnect()
		case ev := <-c.events:
			switch v := ev.(type) {
			case *ackReq:
				c.ack(v)
			case *closeReq2:
				c.internalClose(v)
				return
			}
		}
	}
}

func (c *ackConsumer) reconnect()      {}
func (c *ackConsumer) ack(req *ackReq) {}

func (c *ackConsumer) internalClose(req *closeReq2) {
	defer close(req.done)
	close(c.closeCh)
}

func (c *ackConsumer) Close() {
	req := &closeReq2{done: make(chan struct{})}
	c.events <- req // want `send on c\.events \(chan any, cap 10\) can block forever: .*\[audit: `
	<-req.done
}

func (c *ackConsumer) Ack(id uint64) { c.tracker.add(id) }

// flushLoop is the consumer's own goroutine: it flushes on every tick,
// after the close request as before it, and alone fills the slots.
func (c *ackConsumer) flushLoop(ticks <-chan struct{}) {
	for range ticks {
		c.tick()
	}
}

func (c *ackConsumer) tick() { c.flush() }

func (c *ackConsumer) flush() {
	c.events <- &ackReq{} // want `send on c\.events \(chan any, cap 10\) can block forever: its receiver \(\*ackConsumer\)\.loop can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
}

// AckBatch acks in a loop, one call per id: the package repeats the send.
func (c *ackConsumer) AckBatch(ids []uint64) {
	for _, id := range ids {
		c.ackOne(id)
	}
}

func (c *ackConsumer) ackOne(id uint64) {
	c.events <- &ackReq{id: id} // want `send on c\.events \(chan any, cap 10\) can block forever: its receiver \(\*ackConsumer\)\.loop can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
}

// AckRange does the same through a closure it calls in a loop.
func (c *ackConsumer) AckRange(from, to uint64) {
	ack := func(id uint64) {
		c.events <- &ackReq{id: id} // want `send on c\.events \(chan any, cap 10\) can block forever: its receiver \(\*ackConsumer\)\.loop can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
	}
	for id := from; id < to; id++ {
		ack(id)
	}
}

// A nack tracker asks its consumer, through an interface, to redeliver
// on every tick: the package repeats the send on a goroutine of its own.
type redeliverer interface{ Redeliver(ids []uint64) }

type nackTracker struct{ r redeliverer }

func (t *nackTracker) track(ticks <-chan struct{}) {
	for range ticks {
		t.r.Redeliver(nil)
	}
}

func (c *ackConsumer) Redeliver(ids []uint64) {
	c.events <- ids // want `send on c\.events \(chan any, cap 10\) can block forever: its receiver \(\*ackConsumer\)\.loop can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
}

// A handoffConsumer's events channel has no buffer: the first ack sent
// after the close request waits for good.
type handoffConsumer struct {
	events  chan any
	closeCh chan struct{}
	tracker *ackTracker
}

func NewHandoffConsumer() *handoffConsumer {
	c := &handoffConsumer{events: make(chan any), closeCh: make(chan struct{})}
	c.tracker = newAckTracker(func(id uint64) {
		c.events <- &ackReq{id: id} // want `send on c\.events \(chan any, unbuffered\) can block forever: its receiver \(\*handoffConsumer\)\.loop can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
	})
	go c.loop()
	return c
}

func (c *handoffConsumer) loop() {
	for {
		select {
		case <-c.closeCh:
			return
		case ev := <-c.events:
			if req, ok := ev.(*closeReq2); ok {
				close(c.closeCh)
				close(req.done)
				return
			}
		}
	}
}

func (c *handoffConsumer) Ack(id uint64) { c.tracker.add(id) }

// A stoppableConsumer's loop also stops when Stop closes its stop
// channel, with nothing sent on events: acks sent before that are
// stranded too.
type stoppableConsumer struct {
	events  chan any
	stop    chan struct{}
	tracker *ackTracker
}

func NewStoppableConsumer() *stoppableConsumer {
	c := &stoppableConsumer{events: make(chan any, 10), stop: make(chan struct{})}
	c.tracker = newAckTracker(func(id uint64) {
		c.events <- &ackReq{id: id} // want `send on c\.events \(chan any, cap 10\) can block forever: its receiver \(\*stoppableConsumer\)\.loop can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
	})
	go c.loop()
	return c
}

func (c *stoppableConsumer) loop() {
	for {
		select {
		case <-c.stop:
			return
		case ev := <-c.events:
			if _, ok := ev.(*closeReq2); ok {
				return
			}
		}
	}
}

func (c *stoppableConsumer) Stop() { close(c.stop) }

func (c *stoppableConsumer) Ack(id uint64) { c.tracker.add(id) }

func (c *stoppableConsumer) Close() {
	c.events <- &closeReq2{done: make(chan struct{})} // want `send on c\.events \(chan any, cap 10\) can block forever`
}
