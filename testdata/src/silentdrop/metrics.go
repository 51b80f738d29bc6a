package silentdrop

import (
	"expvar"
	"log"
	"sync/atomic"
)

type stats struct {
	dropped  int64
	lost     atomic.Uint64
	overflow dropCounter
}

// dropCounter is a counter of the package's own: its type name says so.
type dropCounter struct{ n int }

func (c *dropCounter) Inc() { c.n++ }

var droppedEvents = expvar.NewInt("dropped_events")

type hub struct {
	out   chan Event
	stats *stats
}

func (h *hub) atomicAddOK(e Event) {
	select {
	case h.out <- e: // ok: counted
	default:
		atomic.AddInt64(&h.stats.dropped, 1)
	}
}

func (h *hub) atomicTypeOK(e Event) {
	select {
	case h.out <- e: // ok: counted
	default:
		h.stats.lost.Add(1)
	}
}

func (h *hub) fieldIncrementOK(e Event) {
	select {
	case h.out <- e: // ok: x.dropped++ on a field others read
	default:
		h.stats.dropped++
	}
}

func (h *hub) expvarOK(e Event) {
	select {
	case h.out <- e: // ok: counted
	default:
		droppedEvents.Add(1)
	}
}

func (h *hub) ownCounterOK(e Event) {
	select {
	case h.out <- e: // ok: an update method on a type named like a counter
	default:
		h.stats.overflow.Inc()
	}
}

func (h *hub) localCounterLoggedOK(events []Event) {
	dropped := 0
	for _, e := range events {
		select {
		case h.out <- e: // ok: the count is logged after the loop
		default:
			dropped++
		}
	}
	if dropped > 0 {
		log.Printf("dropped %d events", dropped)
	}
}
