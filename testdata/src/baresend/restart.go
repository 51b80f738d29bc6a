package baresend

import "net"

// A broker client hands each publish to its writer goroutine, which
// returns when the connection is lost. The connection-lost handler starts
// the writer again through reconnect only when auto-reconnect is on; with
// it off, a publish that passed its status check just before the loss
// waits for good once the queue is full.
type brokerClient struct {
	conn          net.Conn
	autoReconnect bool
	out           chan []byte
	ctrl          chan []byte // control packets; a disconnect ends the writer
	stop          chan struct{}
	errs          chan error
}

func DialBroker(conn net.Conn, autoReconnect bool) *brokerClient {
	c := &brokerClient{conn: conn, autoReconnect: autoReconnect}
	c.Connect()
	return c
}

// Connect makes the queue and returns; the handshake runs on a goroutine
// of its own, which starts the writer once it is done.
func (c *brokerClient) Connect() {
	c.out = make(chan []byte, 8)
	c.ctrl = make(chan []byte)
	go func() {
		c.stop = make(chan struct{})
		c.errs = make(chan error, 1)
		c.conn.Write([]byte{0x10, 0})
		go brokerWriter(c)
		go c.watch()
	}()
}

func brokerWriter(c *brokerClient) {
	for {
		select {
		case <-c.stop:
			return
		case p := <-c.ctrl:
			c.conn.Write(p)
			return
		case p := <-c.out:
			if _, err := c.conn.Write(p); err != nil {
				c.errs <- err
				return
			}
		}
	}
}

// watch handles every error the workers report; the first one stops them.
func (c *brokerClient) watch() {
	for range c.errs {
		c.connLost()
	}
}

func (c *brokerClient) connLost() {
	c.closeStop()
	if c.autoReconnect {
		go c.reconnect()
	}
}

// closeStop closes stop once, however many errors arrive.
func (c *brokerClient) closeStop() {
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
}

// reconnect keeps the queue: publishes queued during the outage are
// written by the new writer.
func (c *brokerClient) reconnect() {
	c.stop = make(chan struct{})
	go brokerWriter(c)
}

func (c *brokerClient) Publish(p []byte) {
	c.out <- p // want `send on c\.out \(chan \[\]byte, cap 8\) can block forever: its receiver brokerWriter stops once stop is closed, and \(\*brokerClient\)\.connLost, which closes it, starts brokerWriter again only on some of its paths`
}

// The same client, whose connection-lost handler always reconnects: the
// writer comes back for every loss, so a publish waits only for the
// reconnect.
type retryingClient struct {
	conn net.Conn
	out  chan []byte
	ctrl chan []byte
	stop chan struct{}
	errs chan error
}

func DialRetrying(conn net.Conn) *retryingClient {
	c := &retryingClient{conn: conn, out: make(chan []byte, 8), ctrl: make(chan []byte)}
	c.stop = make(chan struct{})
	c.errs = make(chan error, 1)
	go retryingWriter(c)
	go c.watch()
	return c
}

func retryingWriter(c *retryingClient) {
	for {
		select {
		case <-c.stop:
			return
		case p := <-c.ctrl:
			c.conn.Write(p)
			return
		case p := <-c.out:
			if _, err := c.conn.Write(p); err != nil {
				c.errs <- err
				return
			}
		}
	}
}

func (c *retryingClient) watch() {
	for err := range c.errs {
		c.connLost(err)
	}
}

func (c *retryingClient) connLost(err error) {
	close(c.stop)
	if err != nil {
		println("connection lost:", err.Error())
	}
	go c.reconnect()
}

func (c *retryingClient) reconnect() {
	c.stop = make(chan struct{})
	go retryingWriter(c)
}

func (c *retryingClient) Publish(p []byte) {
	c.out <- p // want `\[audit: its receiver retryingWriter can stop waiting, but may run again for the same channel\]`
}

// A client whose writer a caller can start again at any time, through an
// exported Resume that keeps the queue: that the handler does not restart
// it says nothing of what the caller does next.
type resumableClient struct {
	conn          net.Conn
	autoReconnect bool
	out           chan []byte
	ctrl          chan []byte
	stop          chan struct{}
}

func DialResumable(conn net.Conn) *resumableClient {
	c := &resumableClient{conn: conn, out: make(chan []byte, 8), ctrl: make(chan []byte)}
	c.Resume()
	return c
}

// Resume starts a writer on the client's queue.
func (c *resumableClient) Resume() {
	c.stop = make(chan struct{})
	go resumableWriter(c)
}

func resumableWriter(c *resumableClient) {
	for {
		select {
		case <-c.stop:
			return
		case p := <-c.ctrl:
			c.conn.Write(p)
			return
		case p := <-c.out:
			c.conn.Write(p)
		}
	}
}

func (c *resumableClient) ConnLost() {
	close(c.stop)
	if c.autoReconnect {
		go c.Resume()
	}
}

func (c *resumableClient) Publish(p []byte) {
	c.out <- p // want `\[audit: its receiver resumableWriter can stop waiting, but may run again for the same channel\]`
}

// Disconnect hands the writer its last packet, unless it is gone.
func (c *brokerClient) Disconnect() {
	select {
	case c.ctrl <- []byte{0xe0, 0}:
	case <-c.stop:
	}
}

func (c *retryingClient) Disconnect() {
	select {
	case c.ctrl <- []byte{0xe0, 0}:
	case <-c.stop:
	}
}

func (c *resumableClient) Disconnect() {
	select {
	case c.ctrl <- []byte{0xe0, 0}:
	case <-c.stop:
	}
}

// A feed client whose connection-lost handler restarts the writer itself,
// with a fresh stop channel, when it is told to retry: with retries off
// the writer is gone for good, and so is every publish after the loss.
type feedClient struct {
	conn  net.Conn
	retry bool
	out   chan []byte
	ctrl  chan []byte
	stop  chan struct{}
	errs  chan error
}

func DialFeed(conn net.Conn, retry bool) *feedClient {
	c := &feedClient{conn: conn, retry: retry, out: make(chan []byte, 8), ctrl: make(chan []byte)}
	c.stop = make(chan struct{})
	c.errs = make(chan error, 1)
	go feedWriter(c)
	go c.watch()
	return c
}

func feedWriter(c *feedClient) {
	for {
		select {
		case <-c.stop:
			return
		case p := <-c.ctrl:
			c.conn.Write(p)
			return
		case p := <-c.out:
			if _, err := c.conn.Write(p); err != nil {
				c.errs <- err
				return
			}
		}
	}
}

func (c *feedClient) watch() {
	for range c.errs {
		c.connLost()
	}
}

func (c *feedClient) connLost() {
	close(c.stop)
	if c.retry {
		c.stop = make(chan struct{})
		go feedWriter(c)
	}
}

func (c *feedClient) Publish(p []byte) {
	c.out <- p // want `send on c\.out \(chan \[\]byte, cap 8\) can block forever: its receiver feedWriter stops once stop is closed, and \(\*feedClient\)\.connLost, which closes it, starts feedWriter again only on some of its paths`
}

// The same feed, restarted by its handler after every loss: the writer
// always comes back, so a publish waits only for the restart.
type mirrorClient struct {
	conn net.Conn
	out  chan []byte
	ctrl chan []byte
	stop chan struct{}
	errs chan error
}

func DialMirror(conn net.Conn) *mirrorClient {
	c := &mirrorClient{conn: conn, out: make(chan []byte, 8), ctrl: make(chan []byte)}
	c.stop = make(chan struct{})
	c.errs = make(chan error, 1)
	go mirrorWriter(c)
	go c.watch()
	return c
}

func mirrorWriter(c *mirrorClient) {
	for {
		select {
		case <-c.stop:
			return
		case p := <-c.ctrl:
			c.conn.Write(p)
			return
		case p := <-c.out:
			if _, err := c.conn.Write(p); err != nil {
				c.errs <- err
				return
			}
		}
	}
}

func (c *mirrorClient) watch() {
	for range c.errs {
		c.connLost()
	}
}

func (c *mirrorClient) connLost() {
	close(c.stop)
	c.stop = make(chan struct{})
	go mirrorWriter(c)
}

func (c *mirrorClient) Publish(p []byte) {
	c.out <- p // want `\[audit: its receiver mirrorWriter can stop waiting, but may run again for the same channel\]`
}
