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

// An arena pool whose janitor frees one idle spare now and then, without
// waiting, and on close closes the list and frees what is left: a range
// over a closed channel never waits either, so every taker still takes
// only what is there.
type arena struct{ buf []byte }

func (a *arena) release() { a.buf = nil }

type arenaPool struct {
	spare chan *arena
	tick  chan struct{}
	done  chan struct{}
}

func newArenaPool() *arenaPool {
	return &arenaPool{spare: make(chan *arena, 8), tick: make(chan struct{}), done: make(chan struct{})}
}

func (p *arenaPool) get() *arena {
	select {
	case a := <-p.spare:
		return a
	default:
		return &arena{buf: make([]byte, 1<<20)}
	}
}

func (p *arenaPool) putAudit(a *arena) {
	select {
	case p.spare <- a: // want `send on p\.spare \(chan \*arena, cap 8\) drops the \*arena without a trace when the channel is full.* \[audit: the receiver takes from this channel without waiting: a pool or free list\]$`
	default:
	}
}

func (p *arenaPool) janitor() {
	for {
		select {
		case <-p.tick:
			select {
			case a := <-p.spare:
				a.release()
			default:
			}
		case <-p.done:
			close(p.spare)
			for a := range p.spare {
				a.release()
			}
			return
		}
	}
}

// A pool whose janitor waits for spares to free them is a consumer: a
// spare the list had no room for is one it would have taken.
type drainedPool struct {
	spare chan *arena
}

func newDrainedPool() *drainedPool {
	return &drainedPool{spare: make(chan *arena, 8)}
}

func (p *drainedPool) get() *arena {
	select {
	case a := <-p.spare:
		return a
	default:
		return &arena{}
	}
}

func (p *drainedPool) putBad(a *arena) {
	select {
	case p.spare <- a: // want `send on p\.spare \(chan \*arena, cap 8\) drops the \*arena without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}

func (p *drainedPool) janitor() {
	for a := range p.spare {
		a.release()
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

// A free list declared as a channel type: its own methods take from it and
// put back into it, and the channel reaches Return as its receiver, from
// callers out of sight. Every receive on a BufList is Borrow's, which
// makes a buffer when the list is empty.
type BufList chan []byte

var Buffers BufList = make(chan []byte, 64)

func (b BufList) Borrow() (buf []byte) {
	select {
	case buf = <-b:
	default:
		buf = make([]byte, 16)
	}
	return buf[:16]
}

// scratch borrows a buffer and gives it back, as the package's readers do.
func scratch(fill func([]byte)) {
	buf := Buffers.Borrow()
	fill(buf)
	Buffers.ReturnAudit(buf)
}

func (b BufList) ReturnAudit(buf []byte) {
	select {
	case b <- buf: // want `send on b \(BufList, cap 64\) drops the \[\]byte without a trace.* \[audit: the receiver takes from this channel without waiting: a pool or free list\]$`
	default:
	}
}

// A queue declared as a channel type whose taker waits is not a free list:
// a value offered when it is full is one the taker wanted.
type Queue chan []byte

func (q Queue) Take() []byte { return <-q }

func (q Queue) OfferBad(buf []byte) {
	select {
	case q <- buf: // want `send on q \(Queue\) drops the \[\]byte without a trace when the send cannot proceed: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}

// A free list type whose channel is also handed out as a plain channel can
// be received from where its type does not say so: nothing is known of
// those takers.
type LeakyList chan []byte

func (b LeakyList) Borrow() (buf []byte) {
	select {
	case buf = <-b:
	default:
		buf = make([]byte, 16)
	}
	return buf
}

func (b LeakyList) Chan() <-chan []byte { return b }

func (b LeakyList) ReturnBad(buf []byte) {
	select {
	case b <- buf: // want `send on b \(LeakyList\) drops the \[\]byte without a trace when the send cannot proceed: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}
