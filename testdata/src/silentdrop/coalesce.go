package silentdrop

// A status board hands views to its renderer. Where one pending view
// already tells the renderer to redraw, or the sender throws the stale
// view away before it sends, a newer view replaces the dropped one by
// design: the finding is in the audit tier. A channel that queues several
// views is a queue, and a view it drops is lost.

type View struct{ Lines []string }

type board struct {
	redraw chan View // one slot: the latest view
	latest chan View // drained before each send
	log    chan View // a queue of views to record
}

func newBoard() *board {
	return &board{
		redraw: make(chan View, 1),
		latest: make(chan View, 4),
		log:    make(chan View, 32),
	}
}

func (b *board) showAudit(v View) {
	select {
	case b.redraw <- v: // want `send on b\.redraw \(chan View, cap 1\) drops the View without a trace.* \[audit: the channel holds one value, and a pending one already carries the news \(coalescing\)\]$`
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
