package runnerhubregress

import "runnerhub/compassv1internal"

// frameClass says what a queued frame's caller was promised, and so what
// becomes of the frame when the queue is full or its Send fails. The classes
// share one FIFO: they share one wire, and a command gains nothing by
// overtaking a deliver stuck behind a stream that does not drain.
type frameClass int

const (
	frameDeliver frameClass = iota // send1: refused if it cannot be queued; the sweep redelivers
	frameSignal                    // push: advisory, dropped with a warning
	frameCommand                   // dispatch: its caller waits on a pendingCall
)

// outFrame is one frame queued for the Runner.
type outFrame struct {
	cmd   *compassv1internal.SessionsResponse
	class frameClass
}

// sendQueueCap bounds each stream's queue. Frames are small pointers; the
// bound is there to fail fast behind a stream that stopped draining, and is
// large enough that a merely slow stream does not trip it.
const sendQueueCap = 256

// senderState is one attached stream's queue and sender goroutine.
type senderState struct {
	queue chan outFrame
	done  chan struct{} // closed when runSender returns
	// send is the stream's Send, kept for push's fast path.
	send func(*compassv1internal.SessionsResponse) error
}

// enqueue hands f to the sender without blocking. r.mu must be held: that is
// what lets detach close the queue. It reports false when no stream is
// attached or the queue is full; the callers tell the two apart by checking
// r.sender first, under the same hold, and apply their class's policy.
func (r *commandRouter) enqueue(f outFrame) bool {
	if r.sender == nil {
		return false
	}
	select {
	case r.sender.queue <- f: // ok: non-blocking; the default reports the drop to the caller
		return true
	default:
		return false
	}
}

// runSender drains one attachment's queue into its stream, in order. It was
// meant to be the only caller of send for that attachment, which is what
// made a stream Send that is not safe for concurrent use safe without a
// mutex; push's fast path now calls it too. It
// returns when detach closes the queue, or at the first failed Send: the
// stream is dead then, and the handler's deferred detach cleans up.
func (r *commandRouter) runSender(s *senderState, send func(*compassv1internal.SessionsResponse) error) {
	defer close(s.done) // ok: close is not a send
	for f := range s.queue {
		if err := send(f.cmd); err != nil { // ok: the owning sender; singlesender reports the other caller, push
			r.failFrame(f, err)
			return
		}
	}
}

// failFrame settles a frame whose Send failed, by its class. A command's
// caller is parked in waitCall, so its call is completed with the error, not
// merely unregistered; the presence check keeps this from closing done a
// second time when detach got there first.
func (r *commandRouter) failFrame(f outFrame, err error) {
	id := f.cmd.GetRequestId()
	switch f.class {
	case frameCommand:
		r.mu.Lock()
		if call, ok := r.inflight[id]; ok {
			call.err = err
			close(call.done) // ok: close is not a send; it wakes the waiting caller
			delete(r.inflight, id)
		}
		r.mu.Unlock()
	case frameDeliver:
		r.mu.Lock()
		r.deliverRefusals.Remove(id)
		r.mu.Unlock()
		r.logger.Warn("send of deliver failed", "deliver", id, "err", err)
	case frameSignal:
		r.logger.Warn("send of signal failed", "request", id, "err", err)
	}
}
