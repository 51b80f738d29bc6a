package lockedsend

import (
	"errors"
	"sync"
)

// An AMQP connection's mux holds errMu for its whole life and hands out
// sessions on an unbuffered channel. A caller waits for a session, for
// the connection's end, or for nothing: it reads the connection's error,
// which takes errMu, only in the case where the connection is done, and
// done is closed by the mux on its way out. Receiving a session takes no
// lock, so the mux's send under errMu waits for a caller, never for
// itself: no cycle, and the send stays in the audit tier with the other
// sends under a lock that no receiver needs.

type amqpSession struct{ channel uint16 }

type amqpConn struct {
	errMu      sync.Mutex
	err        error
	newSession chan *amqpSession
	done       chan struct{}
	frames     chan uint16
}

func (c *amqpConn) Err() error {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.err
}

func (c *amqpConn) mux() {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	defer close(c.done)
	next := uint16(0)
	for {
		select {
		case c.newSession <- &amqpSession{channel: next}: // want `send on c\.newSession in a select without default can block while c\.errMu is held: every goroutine that needs c\.errMu waits for the channel's receiver \[audit: no receiver of it is seen to need the lock\]`
			next++
		case f, ok := <-c.frames:
			if !ok {
				c.err = errors.New("connection lost")
				return
			}
			next = f
		}
	}
}

func (c *amqpConn) NewSession() (*amqpSession, error) {
	select {
	case <-c.done:
		return nil, c.Err()
	case s := <-c.newSession:
		return s, nil
	}
}

// Near miss: a caller that reads the error after it takes the session
// needs errMu after the receive, and the mux, blocked on its next send
// under errMu, never lets it have it.

type checkedConn struct {
	errMu      sync.Mutex
	err        error
	newSession chan *amqpSession
	done       chan struct{}
}

func (c *checkedConn) Err() error {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.err
}

func (c *checkedConn) mux() {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	defer close(c.done)
	for next := uint16(0); ; next++ {
		select {
		case c.newSession <- &amqpSession{channel: next}: // want `send on c\.newSession in a select without default can block while c\.errMu is held: its receiver \(\*checkedConn\)\.NewSession takes c\.errMu too, so once the channel is full neither can go on`
		case <-c.done:
			return
		}
	}
}

func (c *checkedConn) NewSession() (*amqpSession, error) {
	select {
	case <-c.done:
		return nil, errors.New("connection done")
	case s := <-c.newSession:
		return s, c.Err()
	}
}
