package baresend

// A connection's loop that is told to close cannot close its request
// channels (callers may still be sending), so it drains them up to a
// sentinel: a goroutine sends nil on each, and the loop takes requests
// until it sees nil. The loop leaves its drain only on that nil, so the
// sentinel's send waits for it and no longer. A drain that may leave
// early, a nil some other sender may send, or a first sentinel someone
// else may take leaves the sentinel's sender waiting.

type connRequest struct{ id int }

type connWrite struct{ data []byte }

// drainingConn is the shape done right: its run loop is its channels'
// only reader, and failLeft drains incoming, then writes, each up to its
// nil.
type drainingConn struct {
	closeCh  chan struct{}
	incoming chan *connRequest
	writes   chan *connWrite
}

func newDrainingConn() *drainingConn {
	c := &drainingConn{
		closeCh:  make(chan struct{}),
		incoming: make(chan *connRequest, 10),
		writes:   make(chan *connWrite, 256),
	}
	go c.run()
	return c
}

func (c *drainingConn) request(id int) {
	select {
	case c.incoming <- &connRequest{id: id}:
	case <-c.closeCh:
	}
}

func (c *drainingConn) write(data []byte) {
	select {
	case c.writes <- &connWrite{data: data}:
	case <-c.closeCh:
	}
}

func (c *drainingConn) run() {
	for {
		select {
		case <-c.closeCh:
			c.failLeft()
			return
		case req := <-c.incoming:
			println(req.id)
		case w := <-c.writes:
			println(len(w.data))
		}
	}
}

func (c *drainingConn) failLeft() {
	ch := c.incoming
	go func() {
		ch <- nil       // ok: the loop below leaves only on this nil
		c.writes <- nil // ok: sent once the first nil was taken, and the second loop leaves only on it
	}()
	for req := range ch {
		if req == nil {
			break
		}
		println(req.id)
	}
	for w := range c.writes {
		if w == nil {
			break
		}
		println(len(w.data))
	}
}

// hastyDrainConn's first drain gives up on a bad request: its sentinel,
// and the second one behind it, can be left with no one to take them.
type hastyDrainConn struct {
	closeCh  chan struct{}
	incoming chan *connRequest
	writes   chan *connWrite
}

func newHastyDrainConn() *hastyDrainConn {
	c := &hastyDrainConn{
		closeCh:  make(chan struct{}),
		incoming: make(chan *connRequest, 10),
		writes:   make(chan *connWrite, 256),
	}
	go c.run()
	return c
}

func (c *hastyDrainConn) run() {
	for {
		select {
		case <-c.closeCh:
			c.failLeft()
			return
		case req := <-c.incoming:
			println(req.id)
		case w := <-c.writes:
			println(len(w.data))
		}
	}
}

func (c *hastyDrainConn) failLeft() {
	go func() {
		c.incoming <- nil // want `send on c.incoming \(chan \*connRequest, cap 10\) can block forever: its receiver \(\*hastyDrainConn\).run can stop receiving`
		c.writes <- nil   // want `send on c.writes \(chan \*connWrite, cap 256\) can block forever: its receiver \(\*hastyDrainConn\).run can stop receiving`
	}()
	for req := range c.incoming {
		if req == nil {
			break
		}
		if req.id < 0 {
			return
		}
	}
	for w := range c.writes {
		if w == nil {
			break
		}
	}
}

// forwardingConn's callers may hand it a nil request, which ends the
// drain before the sentinel is taken.
type forwardingConn struct {
	closeCh  chan struct{}
	incoming chan *connRequest
}

func newForwardingConn() *forwardingConn {
	c := &forwardingConn{closeCh: make(chan struct{}), incoming: make(chan *connRequest, 10)}
	go c.run()
	return c
}

func (c *forwardingConn) forward(req *connRequest) {
	select {
	case c.incoming <- req:
	case <-c.closeCh:
	}
}

func (c *forwardingConn) run() {
	for {
		select {
		case <-c.closeCh:
			go func() {
				c.incoming <- nil // want `send on c.incoming \(chan \*connRequest, cap 10\) can block forever: its receiver \(\*forwardingConn\).run can stop receiving`
			}()
			for req := range c.incoming {
				if req == nil {
					break
				}
			}
			return
		case req := <-c.incoming:
			println(req != nil)
		}
	}
}

// watchedConn has a second reader of incoming on a goroutine of its own,
// which may take the first sentinel: the drain of incoming then never
// ends, and the second sentinel waits for a loop that never starts.
type watchedConn struct {
	closeCh  chan struct{}
	incoming chan *connRequest
	writes   chan *connWrite
}

func newWatchedConn() *watchedConn {
	c := &watchedConn{
		closeCh:  make(chan struct{}),
		incoming: make(chan *connRequest, 10),
		writes:   make(chan *connWrite, 256),
	}
	go c.run()
	go c.watch()
	return c
}

func (c *watchedConn) watch() {
	for req := range c.incoming {
		println(req != nil)
	}
}

func (c *watchedConn) run() {
	for {
		select {
		case <-c.closeCh:
			c.failLeft()
			return
		case w := <-c.writes:
			println(len(w.data))
		}
	}
}

func (c *watchedConn) failLeft() {
	go func() {
		c.incoming <- nil // ok: whoever takes it, the drain below leaves only on a nil, and this is the only one
		c.writes <- nil   // want `send on c.writes \(chan \*connWrite, cap 256\) can block forever: its receiver \(\*watchedConn\).run can stop receiving`
	}()
	for req := range c.incoming {
		if req == nil {
			break
		}
	}
	for w := range c.writes {
		if w == nil {
			break
		}
	}
}

// A dispatcher told to clear its queue drains it up to a nil it sends
// itself, then goes back to dispatching. Producers send non-empty batches
// only.
type clearingQueue struct {
	closeCh chan struct{}
	queue   chan []int
	clear   chan func(int)
}

func newClearingQueue() *clearingQueue {
	q := &clearingQueue{closeCh: make(chan struct{}), queue: make(chan []int, 100), clear: make(chan func(int))}
	go q.dispatch()
	return q
}

func (q *clearingQueue) push(batch []int) {
	if len(batch) == 0 {
		return
	}
	q.queue <- batch // want `send on q.queue \(chan \[\]int, cap 100\) can block forever: its receiver \(\*clearingQueue\).dispatch can stop receiving`
}

func (q *clearingQueue) dispatch() {
	for {
		select {
		case <-q.closeCh:
			return
		case batch := <-q.queue:
			println(len(batch))
		case done := <-q.clear:
			go func() {
				q.queue <- nil // ok: the drain below leaves only on this nil, and push never sends an empty batch
			}()
			dropped := 0
			for batch := range q.queue {
				if batch == nil {
					break
				}
				dropped += len(batch)
			}
			done(dropped)
		}
	}
}

// twiceClearedQueue starts two sentinels for one drain: the second waits
// for a receive the dispatcher may never come back to.
type twiceClearedQueue struct {
	closeCh chan struct{}
	queue   chan []int
	clear   chan func()
}

func newTwiceClearedQueue() *twiceClearedQueue {
	q := &twiceClearedQueue{closeCh: make(chan struct{}), queue: make(chan []int, 100), clear: make(chan func())}
	go q.dispatch()
	return q
}

func (q *twiceClearedQueue) dispatch() {
	for {
		select {
		case <-q.closeCh:
			return
		case batch := <-q.queue:
			println(len(batch))
		case done := <-q.clear:
			for range 2 {
				go func() {
					q.queue <- nil // want `send on q.queue \(chan \[\]int, cap 100\) can block forever: its receiver \(\*twiceClearedQueue\).dispatch can stop receiving`
				}()
			}
			for batch := range q.queue {
				if batch == nil {
					break
				}
			}
			done()
		}
	}
}
