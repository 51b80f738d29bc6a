package silentdrop

import (
	"errors"
	"sync/atomic"
)

// quicConn is a handshaken connection waiting for Accept. Closing it
// records why and wakes its run loop, which tells the peer.
type quicConn struct {
	closeErr atomic.Pointer[error]
	closeC   chan struct{}
}

func (c *quicConn) refuse() { c.closeLocal(errRefused) }

func (c *quicConn) closeLocal(err error) { c.setCloseError(err) }

func (c *quicConn) setCloseError(err error) {
	c.closeErr.CompareAndSwap(nil, &err)
	select {
	case c.closeC <- struct{}{}:
	default:
	}
}

var errRefused = errors.New("connection refused")

// hookedConn is what the server keeps per handshake: the connection and
// the hooks its tests install.
type hookedConn struct {
	*quicConn
	onRefuse func()
}

func (h *hookedConn) refuse() {
	if h.onRefuse != nil {
		h.onRefuse()
		return
	}
	h.quicConn.refuse()
}

type acceptQueue struct {
	ready chan *quicConn
}

// enqueueOK: a full accept queue refuses the connection, four calls down
// (hookedConn.refuse, quicConn.refuse, closeLocal, setCloseError): the
// peer learns of the refusal from the run loop.
func (q *acceptQueue) enqueueOK(h *hookedConn) {
	select {
	case q.ready <- h.quicConn: // ok: refused through four helpers
	default:
		h.refuse()
	}
}
