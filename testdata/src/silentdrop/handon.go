package silentdrop

import "sync"

type retryQueue interface {
	Push(e Event)
}

type relay struct {
	out      chan Event
	overflow chan Event
	spill    []Event
	retry    retryQueue
	onDrop   func(Event)
	pool     sync.Pool
}

func (r *relay) overflowChannelOK(e Event) {
	select {
	case r.out <- e: // ok: handed to another channel
	default:
		r.overflow <- e
	}
}

func (r *relay) spillOK(e Event) {
	select {
	case r.out <- e: // ok: kept in a spill buffer
	default:
		r.spill = append(r.spill, e)
	}
}

func (r *relay) retryOK(e Event) {
	select {
	case r.out <- e: // ok: handed to a retry queue
	default:
		r.retry.Push(e)
	}
}

func (r *relay) callbackOK(e Event) {
	select {
	case r.out <- e: // ok: handed to a callback
	default:
		r.onDrop(e)
	}
}

func (r *relay) goroutineOK(e Event) {
	select {
	case r.out <- e: // ok: a goroutine delivers it (baresend judges that send)
	default:
		go func() { r.out <- e }()
	}
}

func (r *relay) dropOldestOK(e Event) {
	select {
	case r.out <- e: // ok: the default makes room and sends again
	default:
		select {
		case <-r.out:
		default:
		}
		r.out <- e
	}
}

func (r *relay) failFastOK(e Event) {
	select {
	case r.out <- e: // ok: fails loudly
	default:
		panic("relay queue full")
	}
}

func (r *relay) cutOffOK(e Event) {
	select {
	case r.out <- e: // ok: the receiver learns it fell behind
	default:
		close(r.out)
	}
}

func (r *relay) poolIsStillADropBad(e *Event) {
	select {
	case r.out <- *e: // want `send on r\.out .* drops the Event without a trace`
	default:
		r.pool.Put(e)
	}
}
