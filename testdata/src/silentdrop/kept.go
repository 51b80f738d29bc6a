package silentdrop

// backlog feeds a channel from a slice; the send takes the head only when
// it succeeds.
type backlog struct {
	c       chan Event
	pending []Event
	byID    map[string]Event
	latest  Event
}

func (b *backlog) loadOK() {
	if len(b.pending) > 0 {
		select {
		case b.c <- b.pending[0]: // ok: the head stays in the backlog until sent
			b.pending = b.pending[1:]
		default:
		}
	}
}

func (b *backlog) mapOK(id string) {
	select {
	case b.c <- b.byID[id]: // ok: the entry stays in the map until sent
		delete(b.byID, id)
	default:
	}
}

// fieldNotRemovedAudit sends a field the case does not take out, so the
// default loses it; but a field of the receiver is the object's own
// state, not a value owed to the caller.
func (b *backlog) fieldNotRemovedAudit(e Event) {
	b.latest = e
	select {
	case b.c <- b.latest: // want `send on b\.c .* drops the Event without a trace.*\[audit: the dropped value is not owed to a caller or a request\]`
		b.byID[b.latest.ID] = b.latest // the case writes elsewhere; b.latest stays, but nothing will send it again
	default:
	}
}

type watcher struct {
	id        int64
	minRev    int64
	compacted bool
	ch        chan WatchResponse
}

type WatchResponse struct {
	WatchID         int64
	CompactRevision int64
}

// syncOK: the watcher stays behind until its response is sent; the next
// sync builds and sends it again.
func syncOK(ws []*watcher, compactRev int64) {
	for _, w := range ws {
		if w.minRev < compactRev {
			select {
			case w.ch <- WatchResponse{WatchID: w.id, CompactRevision: compactRev}: // ok: the case marks w done; the default leaves it for the next sync
				w.compacted = true
			default:
			}
		}
	}
}

func notMarkedBad(ws []*watcher, compactRev int64) {
	for _, w := range ws {
		select {
		case w.ch <- WatchResponse{WatchID: w.id, CompactRevision: compactRev}: // want `send on w\.ch .* drops the WatchResponse without a trace`
		default:
		}
	}
}

type leader struct{ leadc chan bool }

// replacePendingOK: the default drops the stale pending value and tries
// again with the same one.
func (l *leader) replacePendingOK(isLeader bool) {
	lc := isLeader
	for {
		select {
		case l.leadc <- lc: // ok: the default goes round and sends lc again
			return
		default:
			select {
			case <-l.leadc:
			default:
			}
		}
	}
}

// nextValueBad: the loop goes round with the next event, not this one.
func nextValueBad(ch chan<- Event, events []Event) {
	for _, e := range events {
		select {
		case ch <- e: // want `send on ch .* drops the Event without a trace`
		default:
		}
	}
}
