package silentdrop

// A free list keeps spare buffers in a channel. Takers never wait: they
// take one if there is one and make their own if not, so a buffer put back
// when the list is full is garbage, not news.

type frame struct{ b []byte }

type framePool struct {
	free chan *frame
}

func newFramePool() *framePool {
	return &framePool{free: make(chan *frame, 16)}
}

func (p *framePool) get() *frame {
	select {
	case f := <-p.free:
		return f
	default:
		return &frame{b: make([]byte, 0, 4096)}
	}
}

func (p *framePool) putAudit(f *frame) {
	f.b = f.b[:0]
	select {
	case p.free <- f: // want `send on p\.free \(chan \*frame, cap 16\) drops the \*frame without a trace.* \[audit: the receiver takes from this channel without waiting: a pool or free list\]$`
	default:
	}
}

// A mailbox polled without waiting is not a pool: the poller gives back
// nothing when it is empty, and a value the mailbox had no room for is
// one it would have read.
type mailbox struct {
	in chan *frame
}

func newMailbox() *mailbox {
	return &mailbox{in: make(chan *frame, 16)}
}

func (m *mailbox) poll() *frame {
	select {
	case f := <-m.in:
		return f
	default:
		return nil
	}
}

func (m *mailbox) deliverBad(f *frame) {
	select {
	case m.in <- f: // want `send on m\.in \(chan \*frame, cap 16\) drops the \*frame without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}
