package silentdrop

import "time"

type request struct{ subscribers []func(Event) }

func (r *request) subscribe(f func(Event)) { r.subscribers = append(r.subscribers, f) }

// firstReplyWinsOK: the reader takes one reply; the slot holds it.
func (r *request) firstReplyWinsOK(timeout time.Duration) (Event, bool) {
	respC := make(chan Event, 1)
	r.subscribe(func(e Event) {
		select {
		case respC <- e: // ok: the reader takes one value, and the buffer holds one
		default:
		}
	})
	select {
	case e := <-respC:
		return e, true
	case <-time.After(timeout):
		return Event{}, false
	}
}

// readInLoopBad: the reader keeps reading, so a dropped reply is one it
// would have read.
func (r *request) readInLoopBad(n int) []Event {
	respC := make(chan Event, 2)
	r.subscribe(func(e Event) {
		select {
		case respC <- e: // want `send on respC \(chan Event, cap 2\) drops the Event without a trace when the channel is full`
		default:
		}
	})
	var out []Event
	for i := 0; i < n; i++ {
		out = append(out, <-respC)
	}
	return out
}

// threeReadersBad: three receives and room for two.
func (r *request) threeReadersBad() (Event, Event, Event) {
	respC := make(chan Event, 2)
	r.subscribe(func(e Event) {
		select {
		case respC <- e: // want `send on respC \(chan Event, cap 2\) drops the Event without a trace`
		default:
		}
	})
	return <-respC, <-respC, <-respC
}

// handler is a named func type, as a message router declares its handlers.
type handler func(Event)

func (r *request) subscribeHandler(h handler) { r.subscribers = append(r.subscribers, h) }

// namedHandlerOK: the closure converted to a handler type is still followed.
func (r *request) namedHandlerOK(timeout time.Duration) (Event, bool) {
	respC := make(chan Event, 1)
	r.subscribeHandler(func(e Event) {
		select {
		case respC <- e: // ok: the reader takes one value, and the buffer holds one
		default:
		}
	})
	select {
	case e := <-respC:
		return e, true
	case <-time.After(timeout):
		return Event{}, false
	}
}

type inbox struct {
	replies  map[string]func(Event)
	handlers map[string]handler
}

// registeredNamedHandlerOK: the handler map holds a named func type.
func (ib *inbox) registeredNamedHandlerOK(subj string) Event {
	respC := make(chan Event, 1)
	ib.handlers[subj] = func(e Event) {
		select {
		case respC <- e: // ok: a one-slot reply channel, read once
		default:
		}
	}
	return <-respC
}

// registeredHandlerOK: the reply handler is registered, not called here;
// the one-slot channel is read once.
func (ib *inbox) registeredHandlerOK(subj string) Event {
	respC := make(chan Event, 1)
	ib.replies[subj] = func(e Event) {
		select {
		case respC <- e: // ok: a one-slot reply channel, read once
		default:
		}
	}
	return <-respC
}

// newReplySlot returns the slot its caller waits on.
func (ib *inbox) newReplySlot(subj string) chan Event {
	respC := make(chan Event, 1)
	ib.replies[subj] = func(e Event) {
		select {
		case respC <- e: // ok: a one-slot reply channel returned to its waiter
		default:
		}
	}
	return respC
}

// handedOnBad: the channel itself goes to code that may read it in a loop.
func (ib *inbox) handedOnBad(subj string, consume func(<-chan Event)) {
	respC := make(chan Event, 4)
	ib.replies[subj] = func(e Event) {
		select {
		case respC <- e: // want `send on respC \(chan Event, cap 4\) drops the Event without a trace`
		default:
		}
	}
	consume(respC)
}
