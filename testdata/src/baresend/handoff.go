package baresend

import "errors"

// A channel handed on: its first reader (a resync that gives up once its
// work is done) stops, and a loop that ranges over it to its close takes
// over. While that loop runs every send finds a receiver, so the first
// reader's stop strands no one; whether it runs whenever the first has
// stopped is a question of order the pass leaves to the audit tier.

type notice struct{ channel string }

type listenConn struct{ notices chan<- *notice }

func dialListenConn(notices chan<- *notice) *listenConn {
	c := &listenConn{notices: notices}
	go c.recv()
	return c
}

func (c *listenConn) recv() {
	for i := 0; ; i++ {
		c.notices <- &notice{channel: "events"} // want `\[audit: its receiver \(\*pgListener\)\.resync can stop, but \(\*pgListener\)\.serve receives from it until it is closed\]`
	}
}

type pgListener struct {
	conn     *listenConn
	incoming <-chan *notice
	handle   func(*notice)
}

func (l *pgListener) connect() error {
	notices := make(chan *notice, 32)
	l.conn = dialListenConn(notices)
	if err := l.resync(notices); err != nil {
		return err
	}
	l.incoming = notices
	return nil
}

// resync reads the notices that arrive while it listens again, and stops
// once it is done.
func (l *pgListener) resync(notices <-chan *notice) error {
	done := make(chan error, 1)
	go func() { done <- nil }()
	for {
		select {
		case <-notices:
		case err := <-done:
			return err
		}
	}
}

func (l *pgListener) serve() {
	for {
		n, ok := <-l.incoming
		if !ok {
			return
		}
		l.handle(n)
	}
}

// relayConn's second reader gives up when a write fails: the first
// reader's stop is a proof again.
type relayConn struct{ notices chan<- *notice }

func dialRelayConn(notices chan<- *notice) *relayConn {
	c := &relayConn{notices: notices}
	go c.recv()
	return c
}

func (c *relayConn) recv() {
	for {
		c.notices <- &notice{channel: "relay"} // want `send on c\.notices \(chan<- \*notice, cap 32\) can block forever: its receiver \(\*relayListener\)\.resync can stop receiving`
	}
}

type relayListener struct {
	conn     *relayConn
	incoming <-chan *notice
}

func (l *relayListener) connect() error {
	notices := make(chan *notice, 32)
	l.conn = dialRelayConn(notices)
	if err := l.resync(notices); err != nil {
		return err
	}
	l.incoming = notices
	return nil
}

func (l *relayListener) resync(notices <-chan *notice) error {
	done := make(chan error, 1)
	go func() { done <- nil }()
	for {
		select {
		case <-notices:
		case err := <-done:
			return err
		}
	}
}

func (l *relayListener) serve(write func(*notice) error) error {
	for n := range l.incoming {
		if err := write(n); err != nil {
			return errors.Join(err, errors.New("relay stopped"))
		}
	}
	return nil
}
