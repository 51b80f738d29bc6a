package baresend

import "errors"

// An RPC client reads responses on a goroutine of its own and hands each
// to its dispatch loop; the reader's last value is its read error, after
// which it returns. The loop stops when the client is closed, and on its
// way out, while a reader may still run, it takes responses until that
// error comes: a reader blocked on either channel is let go. Whether the
// drain runs on every way out the pass does not follow (a flag says
// whether a reader runs), so the sends are audited. A reader that goes on
// after its error, or a loop with no drain, leaves a reader blocked.

type readMessage struct{ id int }

type readCodec interface {
	read() (readMessage, error)
}

type readingClient struct {
	close   chan struct{}
	readOp  chan readMessage
	readErr chan error
	handle  func(readMessage)
}

func dialRPC(codec readCodec, handle func(readMessage)) *readingClient {
	c := &readingClient{close: make(chan struct{}), readOp: make(chan readMessage), readErr: make(chan error), handle: handle}
	go c.dispatch(codec)
	return c
}

func (c *readingClient) Close() { close(c.close) }

func (c *readingClient) dispatch(codec readCodec) {
	reading := true
	defer func() {
		if reading {
			c.drainRead()
		}
	}()
	go c.readLoop(codec)
	for {
		select {
		case <-c.close:
			return
		case msg := <-c.readOp:
			c.handle(msg)
		case <-c.readErr:
			reading = false
		}
	}
}

// drainRead drops responses until the reader's error comes.
func (c *readingClient) drainRead() {
	for {
		select {
		case <-c.readOp:
		case <-c.readErr:
			return
		}
	}
}

func (c *readingClient) readLoop(codec readCodec) {
	for {
		msg, err := codec.read()
		if err != nil {
			c.readErr <- err // want `send on c\.readErr \(chan error, unbuffered\) can block forever: .*\[audit: its receiver \(\*readingClient\)\.dispatch, on its way out, runs \(\*readingClient\)\.drainRead, which takes values from it until the sender's last one, on readErr: a send blocks only if the drain is skipped\]$`
			return
		}
		c.readOp <- msg // want `send on c\.readOp \(chan readMessage, unbuffered\) can block forever: .*\[audit: its receiver \(\*readingClient\)\.dispatch, on its way out, runs \(\*readingClient\)\.drainRead, which takes values from it until the sender's last one, on readErr: a send blocks only if the drain is skipped\]$`
	}
}

// A client whose reader reports a read error and reads on: the drain
// returns on the first error, and the reader's next response waits for
// good.
type retryingReadingClient struct {
	close   chan struct{}
	readOp  chan readMessage
	readErr chan error
}

func dialRetryingRPC(codec readCodec) *retryingReadingClient {
	c := &retryingReadingClient{close: make(chan struct{}), readOp: make(chan readMessage), readErr: make(chan error)}
	go c.dispatch(codec)
	return c
}

func (c *retryingReadingClient) Close() { close(c.close) }

func (c *retryingReadingClient) dispatch(codec readCodec) {
	defer c.drainRead()
	go c.readLoop(codec)
	for {
		select {
		case <-c.close:
			return
		case <-c.readOp:
		case <-c.readErr: // a timeout: the reader goes on
		}
	}
}

func (c *retryingReadingClient) drainRead() {
	for {
		select {
		case <-c.readOp:
		case <-c.readErr:
			return
		}
	}
}

var errReadTimeout = errors.New("timeout")

func (c *retryingReadingClient) readLoop(codec readCodec) {
	for {
		msg, err := codec.read()
		if err == errReadTimeout {
			c.readErr <- err // want `send on c\.readErr \(chan error, unbuffered\) can block forever: its receiver \(\*retryingReadingClient\)\.dispatch can stop receiving`
			continue
		}
		if err != nil {
			return
		}
		c.readOp <- msg // want `send on c\.readOp \(chan readMessage, unbuffered\) can block forever: its receiver \(\*retryingReadingClient\)\.dispatch can stop receiving`
	}
}

// A client that stops without draining strands its reader.
type abruptReadingClient struct {
	close  chan struct{}
	readOp chan readMessage
}

func dialAbruptRPC(codec readCodec) *abruptReadingClient {
	c := &abruptReadingClient{close: make(chan struct{}), readOp: make(chan readMessage)}
	go c.dispatch(codec)
	return c
}

func (c *abruptReadingClient) Close() { close(c.close) }

func (c *abruptReadingClient) dispatch(codec readCodec) {
	go c.readLoop(codec)
	for {
		select {
		case <-c.close:
			return
		case <-c.readOp:
		}
	}
}

func (c *abruptReadingClient) readLoop(codec readCodec) {
	for {
		msg, err := codec.read()
		if err != nil {
			return
		}
		c.readOp <- msg // want `send on c\.readOp \(chan readMessage, unbuffered\) can block forever: its receiver \(\*abruptReadingClient\)\.dispatch can stop receiving`
	}
}

// A client whose reader, after its error, hands a last message to a
// helper that sends it: the drain has returned by then.
type chattyReadingClient struct {
	close   chan struct{}
	readOp  chan readMessage
	readErr chan error
}

func dialChattyReading(codec readCodec) *chattyReadingClient {
	c := &chattyReadingClient{close: make(chan struct{}), readOp: make(chan readMessage), readErr: make(chan error)}
	go c.dispatch(codec)
	return c
}

func (c *chattyReadingClient) Close() { close(c.close) }

func (c *chattyReadingClient) dispatch(codec readCodec) {
	defer c.drainRead()
	go c.readLoop(codec)
	for {
		select {
		case <-c.close:
			return
		case <-c.readOp:
		case <-c.readErr:
		}
	}
}

func (c *chattyReadingClient) drainRead() {
	for {
		select {
		case <-c.readOp:
		case <-c.readErr:
			return
		}
	}
}

func (c *chattyReadingClient) readLoop(codec readCodec) {
	for {
		msg, err := codec.read()
		if err != nil {
			c.readErr <- err // want `send on c\.readErr \(chan error, unbuffered\) can block forever: its receiver \(\*chattyReadingClient\)\.dispatch can stop receiving`
			c.farewell(msg)
			return
		}
		c.readOp <- msg // want `send on c\.readOp \(chan readMessage, unbuffered\) can block forever: its receiver \(\*chattyReadingClient\)\.dispatch can stop receiving`
	}
}

func (c *chattyReadingClient) farewell(msg readMessage) {
	c.readOp <- msg // want `send on c\.readOp \(chan readMessage, unbuffered\) can block forever: its receiver \(\*chattyReadingClient\)\.dispatch can stop receiving`
}
