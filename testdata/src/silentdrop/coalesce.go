package silentdrop

// A status board hands views to its renderer. Where one pending flag
// already tells the renderer to redraw, or the sender throws the stale
// view away before it sends, nothing is lost by design: the finding is in
// the audit tier. A newer view dropped behind an older one in a one-slot
// channel is lost news, and a channel that queues several views is a
// queue, and a view it drops is lost.

type View struct{ Lines []string }

type board struct {
	redraw chan View // one slot: the first view waiting wins
	dirty  chan bool // one slot: redraw, whatever changed
	latest chan View // drained before each send
	log    chan View // a queue of views to record
}

func newBoard() *board {
	return &board{
		redraw: make(chan View, 1),
		dirty:  make(chan bool, 1),
		latest: make(chan View, 4),
		log:    make(chan View, 32),
	}
}

func (b *board) showStaleBad(v View) {
	select {
	case b.redraw <- v: // want `send on b\.redraw \(chan View, cap 1\) drops the View without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}

func (b *board) markDirtyAudit(changed bool) {
	select {
	case b.dirty <- changed: // want `send on b\.dirty \(chan bool, cap 1\) drops the bool without a trace.* \[audit: the channel holds one value, and a pending one already carries the news \(coalescing\)\]$`
	default:
	}
}

func (b *board) replaceAudit(v View) {
	select {
	case <-b.latest:
	default:
	}
	select {
	case b.latest <- v: // want `send on b\.latest \(chan View, cap 4\) drops the View without a trace.* \[audit: a newer value replaces it \(coalescing\)\]$`
	default:
	}
}

func (b *board) recordBad(v View) {
	select {
	case b.log <- v: // want `send on b\.log \(chan View, cap 32\) drops the View without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}

// A block requester is told to retry through a one-slot channel that
// carries the peer that failed. The requester only tests the peer, and
// then resets the request made to it: a retry for a second peer dropped
// behind a pending one for the first is lost, and that block waits for
// the retry timer.
type blockRequester struct {
	redo  chan string
	peers map[string]bool
}

func newBlockRequester() *blockRequester {
	return &blockRequester{redo: make(chan string, 1), peers: make(map[string]bool)}
}

func (r *blockRequester) retryBad(peer string) {
	select {
	case r.redo <- peer: // want `send on r\.redo \(chan string, cap 1\) drops the string without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}

func (r *blockRequester) run() {
	for peer := range r.redo {
		if r.requestedFrom(peer) && r.reset(peer) {
			r.request()
		}
	}
}

func (r *blockRequester) requestedFrom(peer string) bool { return r.peers[peer] }

func (r *blockRequester) reset(peer string) bool {
	delete(r.peers, peer)
	return len(r.peers) == 0
}

func (r *blockRequester) request() { r.peers["next"] = true }
