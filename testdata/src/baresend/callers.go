package baresend

import "sync"

// A channel a caller hands in (Notify(c)) is read by that caller, which the
// package cannot see. When the package loops over every registered channel,
// or keeps sending on one, a caller that stops reading stops the loop that
// every other caller depends on.

// amqpConn tells each registered listener about the close, in turn.
type amqpConn struct {
	mu     sync.Mutex
	closes []chan error
	single chan error
}

// NotifyClose registers a listener's channel.
func (c *amqpConn) NotifyClose(ch chan error) chan error {
	c.mu.Lock()
	c.closes = append(c.closes, ch)
	c.mu.Unlock()
	return ch
}

// SetErrors hands in the one channel errors go to.
func (c *amqpConn) SetErrors(ch chan error) { c.single = ch }

func (c *amqpConn) shutdownBad(err error) {
	for _, ch := range c.closes {
		ch <- err // want `send on ch \(chan error\) can block forever: its receiver is the caller that handed it to \(\*amqpConn\).NotifyClose, who can stop reading`
	}
}

func (c *amqpConn) reportOnceAudit(err error) {
	c.single <- err // want `send on c.single .*\[audit: no receiver of it is visible in this package\]`
}

// watchers deliver each event to every registered watcher; a watcher that
// asked for blocking delivery gets every event, the others may miss some.
type watcher struct {
	ch       chan string
	blocking bool
}

type watchers struct{ all []*watcher }

// Watch registers a caller's channel, and whether to wait for it.
func (w *watchers) Watch(ch chan string, blocking bool) {
	w.all = append(w.all, &watcher{ch: ch, blocking: blocking})
}

func (w *watchers) publishAsAskedAudit(e string) {
	for _, x := range w.all {
		if x.blocking {
			x.ch <- e // want `send on x.ch .*\[audit: the send blocks only when the caller asked for it \(blocking\); the other branch does not wait\]`
		} else {
			select {
			case x.ch <- e:
			default:
			}
		}
	}
}

// Transport hands its packets to whoever reads PacketCh; the package reads
// it itself, through the interface.
type Transport interface{ PacketCh() <-chan string }

type udpTransport struct{ packets chan string }

// PacketCh hands out the transport's channel.
func (t *udpTransport) PacketCh() <-chan string { return t.packets }

func (t *udpTransport) listenAudit(read func() string) {
	for {
		t.packets <- read() // want `send on t.packets .*\[audit: no receiver of it is visible in this package\]`
	}
}

func consume(t Transport) {
	for p := range t.PacketCh() {
		println(p)
	}
}
