package silentdrop

import (
	"errors"
	"time"
)

// An exporter's connection, kept up by one background loop that waits for
// a disconnect signal and dials again. Exports report a broken connection
// through setDisconnected, and so does the loop when its own dial fails:
// on the unbuffered channel, with a default, the loop's own report finds
// nobody waiting, so the loop waits for a signal that was thrown away and
// never dials again.
type exportConn struct {
	stopCh         chan struct{}
	disconnectedCh chan bool
	dial           func() error
}

func newExportConn(dial func() error) *exportConn {
	c := &exportConn{
		stopCh:         make(chan struct{}),
		disconnectedCh: make(chan bool),
		dial:           dial,
	}
	go c.reconnectLoop()
	return c
}

func (c *exportConn) setDisconnected() {
	select {
	case c.disconnectedCh <- true: // want `send on c\.disconnectedCh \(chan bool, unbuffered\) always drops the bool when \(\*exportConn\)\.reconnectLoop makes it: that function is the channel's only receiver, so no one is waiting, and the default runs; a signal meant for it is lost, not deferred$`
	default:
	}
}

func (c *exportConn) reconnectLoop() {
	for {
		select {
		case <-c.stopCh:
			return
		case <-c.disconnectedCh:
		}
		if err := c.dial(); err != nil {
			c.setDisconnected()
		}
		select {
		case <-c.stopCh:
			return
		case <-time.After(time.Second):
		}
	}
}

// Export is the other caller: from an export's goroutine the signal can
// reach a waiting loop.
func (c *exportConn) Export(send func() error) error {
	err := send()
	if errors.Is(err, errBroken) {
		c.setDisconnected()
	}
	return err
}

var errBroken = errors.New("connection broken")

// The fixed connection keeps one pending signal: the loop's own report
// waits in the buffer for its next turn, and a second report coalesces
// with it.
type bufferedExportConn struct {
	stopCh         chan struct{}
	disconnectedCh chan bool
	dial           func() error
}

func newBufferedExportConn(dial func() error) *bufferedExportConn {
	c := &bufferedExportConn{
		stopCh:         make(chan struct{}),
		disconnectedCh: make(chan bool, 1),
		dial:           dial,
	}
	go c.reconnectLoop()
	return c
}

func (c *bufferedExportConn) setDisconnected() {
	select {
	case c.disconnectedCh <- true: // ok: a pending signal stands for this one
	default:
	}
}

func (c *bufferedExportConn) reconnectLoop() {
	for {
		select {
		case <-c.stopCh:
			return
		case <-c.disconnectedCh:
		}
		if err := c.dial(); err != nil {
			c.setDisconnected()
		}
	}
}

// A watcher whose signal only other goroutines send: the loop is waiting
// whenever it is not busy, and a signal missed while it is busy is the
// ordinary coalescing drop of a constant.
type pokeWatcher struct {
	poke  chan bool
	check func()
}

func newPokeWatcher(check func()) *pokeWatcher {
	w := &pokeWatcher{poke: make(chan bool), check: check}
	go w.watch()
	return w
}

func (w *pokeWatcher) Poke() {
	select {
	case w.poke <- true: // ok: the loop never sends it itself
	default:
	}
}

func (w *pokeWatcher) watch() {
	for range w.poke {
		w.check()
	}
}

// A pool of loops on one channel: while one of them makes the send,
// another may be waiting, so the send is not always dropped.
type retryPool struct {
	retry chan bool
	work  func() error
}

func newRetryPool(work func() error) *retryPool {
	p := &retryPool{retry: make(chan bool), work: work}
	for range 4 {
		go p.loop()
	}
	return p
}

func (p *retryPool) loop() {
	for range p.retry {
		if p.work() != nil {
			select {
			case p.retry <- true: // ok: another loop of the pool may be waiting
			default:
			}
		}
	}
}
