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

func (b *backlog) fieldNotRemovedBad(e Event) {
	b.latest = e
	select {
	case b.c <- b.latest: // want `send on b\.c .* drops the Event without a trace`
		b.byID[b.latest.ID] = b.latest // the case writes elsewhere; b.latest stays, but nothing will send it again
	default:
	}
}
