// Package runnerhubregress is runnerhubfixed with one regression: push grew
// a "fast path" that calls the stream's Send itself when the queue is empty,
// which needs attach to keep Send in senderState. An empty queue does not
// mean an idle sender: runSender may be inside Send with the frame it just
// took, so two Sends run at once on a stream that forbids it, and push makes
// its call holding r.mu, so one Runner that stops reading stalls every
// enqueue on its router again. The delivery consumer is left out: its path,
// send1, is not touched.
//
// Expected verdicts: singlesender and lockedsend (r.mu) at push's direct
// call. runSender stays the owning sender and draws nothing; the store of
// Send into senderState in attach is not marked, the call is.
package runnerhubregress

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"runnerhub/compassv1internal"
)

var errNoStream = errors.New("runner has no live sessions stream")

// pendingCall is a session command waiting for the Runner's result. done is
// closed once result or err is set.
type pendingCall struct {
	done   chan struct{}
	result *compassv1internal.SessionsRequest
	err    error
}

// commandRouter relays frames to one Runner. There is one per Runner
// attached to the hub, so every session on that Runner shares it; what they
// share is a queue, never a wait on the stream.
type commandRouter struct {
	runnerID string
	logger   *slog.Logger

	mu sync.Mutex
	// sender is the live stream's queue and sender goroutine; nil while no
	// stream is attached. Guarded by mu.
	sender *senderState
	// inflight holds the session commands awaiting their result, by request
	// id. Guarded by mu.
	inflight map[string]*pendingCall
	// deliverRefusals and refused make a deliver refusal observable: it is
	// logged with what was refused, and counted. Guarded by mu.
	deliverRefusals *refusalLRU
	refused         uint64
}

func newCommandRouter(runnerID string, logger *slog.Logger) *commandRouter {
	return &commandRouter{
		runnerID:        runnerID,
		logger:          logger.With("runner", runnerID),
		inflight:        make(map[string]*pendingCall),
		deliverRefusals: newRefusalLRU(deliverRefusalsLimit),
	}
}

// attach binds the Runner's live stream: it gives the stream's Send to a new
// sender goroutine, and keeps it in senderState for push's fast path. A fresh
// queue per attach means a reattached stream never inherits frames meant for
// the old one.
func (r *commandRouter) attach(send func(*compassv1internal.SessionsResponse) error) {
	s := &senderState{queue: make(chan outFrame, sendQueueCap), done: make(chan struct{}), send: send}
	r.mu.Lock()
	r.sender = s
	r.mu.Unlock()
	go r.runSender(s, send)
}

// detach unbinds the stream, fails every call still waiting for a result
// with cause (queued commands among them), and waits for the sender to exit.
// Closing the queue under mu is safe because every enqueue happens under mu
// after checking r.sender. The wait is short: the handler detaches after its
// stream is torn down, so a Send in progress fails promptly.
func (r *commandRouter) detach(cause error) {
	r.mu.Lock()
	s := r.sender
	r.sender = nil
	if s != nil {
		close(s.queue) // ok: close is not a send
	}
	for id, call := range r.inflight {
		call.err = cause
		close(call.done) // ok: close is not a send; it wakes the waiting caller
		delete(r.inflight, id)
	}
	r.mu.Unlock()
	if s != nil {
		<-s.done
	}
}

// send1 queues one deliver for the Runner and does not wait: nil means
// queued, and the delivery succeeds when the Runner acks it. An error is a
// refusal made here and now (no stream, or the queue is full); the delivery
// consumer then leaves the message to its sweep.
func (r *commandRouter) send1(cmd *compassv1internal.SessionsResponse) error {
	id := cmd.GetRequestId()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sender == nil {
		return fmt.Errorf("no live runner sessions stream for deliver %q", id)
	}
	r.deliverRefusals.Add(refusalEntry{id: id, sessionID: cmd.Deliver.SessionId, seq: cmd.Deliver.Seq, sentAt: time.Now()})
	if !r.enqueue(outFrame{cmd: cmd, class: frameDeliver}) {
		// The deliver will not reach the Runner, so no refusal can come back.
		r.deliverRefusals.Remove(id)
		return fmt.Errorf("runner send queue full for deliver %q", id)
	}
	return nil
}

// push queues a signal. Signals are advisory, since a Runner fetches current
// versions whenever it reconnects: with no stream attached push succeeds
// without sending, and with a full queue it drops the signal with a warning.
// With an empty queue it sends the signal at once, to save the hop through
// the sender goroutine.
func (r *commandRouter) push(cmd *compassv1internal.SessionsResponse) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sender == nil {
		return nil
	}
	if len(r.sender.queue) == 0 {
		return r.sender.send(cmd) // want `singlesender: .*\bsend\b` `lockedsend: .*r\.mu`
	}
	if !r.enqueue(outFrame{cmd: cmd, class: frameSignal}) {
		r.logger.Warn("runner send queue full; signal dropped", "request", cmd.GetRequestId())
	}
	return nil
}

// dispatch queues a session command and waits for the Runner's result. A
// retry with the request id of a call still in flight joins that call. A full
// queue fails the command at once and drops its registration, so that the
// caller, told Unavailable, can retry with the same id.
func (r *commandRouter) dispatch(ctx context.Context, cmd *compassv1internal.SessionsResponse) (*compassv1internal.SessionsRequest, error) {
	id := cmd.GetRequestId()
	if id == "" {
		return nil, errors.New("session command has no request id")
	}
	r.mu.Lock()
	if call, ok := r.inflight[id]; ok {
		r.mu.Unlock()
		return r.waitCall(ctx, call)
	}
	if r.sender == nil {
		r.mu.Unlock()
		return nil, errNoStream
	}
	call := &pendingCall{done: make(chan struct{})}
	r.inflight[id] = call
	if !r.enqueue(outFrame{cmd: cmd, class: frameCommand}) {
		delete(r.inflight, id)
		r.mu.Unlock()
		return nil, fmt.Errorf("runner send queue full for command %q", id)
	}
	r.mu.Unlock()
	return r.waitCall(ctx, call)
}

// waitCall waits for call's result, or for ctx. A caller that gives up
// leaves the call registered, so that its retry joins it.
func (r *commandRouter) waitCall(ctx context.Context, call *pendingCall) (*compassv1internal.SessionsRequest, error) {
	select {
	case <-call.done:
		return call.result, call.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// complete takes one frame from the Runner: a command's result wakes its
// caller, an ack retires a deliver's refusal entry, and a refusal is logged
// and counted.
func (r *commandRouter) complete(frame *compassv1internal.AgentFrame) {
	switch {
	case frame.Result != nil:
		id := frame.Result.GetRequestId()
		r.mu.Lock()
		call, ok := r.inflight[id]
		if ok {
			call.result = frame.Result
			close(call.done) // ok: close is not a send; it wakes the waiting caller
			delete(r.inflight, id)
		}
		r.mu.Unlock()
		if !ok {
			r.logger.Debug("result for a call no longer waiting", "request", id)
		}
	case frame.DeliveryAck != nil:
		r.mu.Lock()
		r.deliverRefusals.Remove(frame.DeliveryAck.RequestId)
		r.mu.Unlock()
	case frame.DeliveryRefusal != nil:
		refusal := frame.DeliveryRefusal
		r.mu.Lock()
		entry, known := r.deliverRefusals.Take(refusal.RequestId)
		r.refused++
		r.mu.Unlock()
		if known {
			r.logger.Warn("runner refused deliver", "deliver", entry.id, "session", entry.sessionID, "seq", entry.seq, "reason", refusal.Reason)
		} else {
			r.logger.Warn("runner refused a deliver no longer remembered", "deliver", refusal.RequestId, "reason", refusal.Reason)
		}
	}
}
