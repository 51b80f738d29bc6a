package baresend

import "sync"

// An error reporter hands events to its worker in batches. The current
// batch travels in a one-slot channel used as a lock: a sender takes it,
// queues its event, and puts it back. Configure makes that channel and
// puts the first batch in at once: the buffer is empty, so the send finds
// room, even though the receiver is captured by the closure that starts
// the worker and every use of it is a load of its own. With a call
// between the make and the send, other code may fill the slot first, and
// the worker, which stops on Close, may never take it.

type reportBatch struct{ items chan string }

type reporter struct {
	buffer    chan reportBatch
	done      chan struct{}
	startOnce sync.Once
	size      int
	logf      func(string)
}

func (r *reporter) ConfigureOK() {
	r.buffer = make(chan reportBatch, 1)
	r.buffer <- reportBatch{items: make(chan string, r.size)} // ok: the first value into a buffer just made
	r.startOnce.Do(func() { go r.worker() })
}

func (r *reporter) ConfigureLoggedBad() {
	r.buffer = make(chan reportBatch, 1)
	r.logf("reporter configured")
	r.buffer <- reportBatch{items: make(chan string, r.size)} // want `send on r\.buffer \(chan reportBatch, cap 1\) can block forever: its receiver \(\*reporter\)\.worker can stop receiving`
	r.startOnce.Do(func() { go r.worker() })
}

func (r *reporter) Report(event string) {
	b := <-r.buffer
	select {
	case b.items <- event:
	default:
	}
	r.buffer <- b
}

func (r *reporter) Close() { close(r.done) }

func (r *reporter) worker() {
	for b := range r.buffer {
		r.buffer <- b
		select {
		case <-b.items:
		case <-r.done:
			return
		}
	}
}
