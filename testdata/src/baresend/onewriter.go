package baresend

import "time"

// A peer's broadcaster writes to the peer on a goroutine of its own, one
// write at a time, so that a slow peer never holds up the loop that
// queues for it. It starts a write only while none is running (done is
// nil); a write that succeeds closes its done channel, which lets the
// next one start, and a write that fails reports once and leaves done
// set, so that no write starts after a failure: the one-slot failure
// channel never holds more than that report, even once the loop has
// returned on term.

type peerLink struct {
	queued chan []string
	term   chan struct{}
	write  func([]string) error
}

func (p *peerLink) broadcastLoop() {
	var (
		queue  []string
		done   chan struct{}
		fail   = make(chan error, 1)
		failed bool
	)
	for {
		if done == nil && len(queue) > 0 {
			batch := queue
			queue = nil
			done = make(chan struct{})
			go func() {
				if err := p.write(batch); err != nil {
					fail <- err
					return
				}
				close(done)
			}()
		}
		select {
		case items := <-p.queued:
			if !failed {
				queue = append(queue, items...)
			}
		case <-done:
			done = nil
		case <-fail:
			failed = true
		case <-p.term:
			return
		}
	}
}

// retryingBroadcastLoop's writes close done whether they fail or not, so
// a failed write lets the next one start while its report still waits:
// two failures fill the slot, and the second waits for good once the
// loop has returned.
func (p *peerLink) retryingBroadcastLoop() {
	var (
		queue []string
		done  chan struct{}
		fail  = make(chan error, 1)
	)
	for {
		if done == nil && len(queue) > 0 {
			batch := queue
			queue = nil
			done = make(chan struct{})
			go func() {
				if err := p.write(batch); err != nil {
					fail <- err // want `send on fail \(chan error, cap 1\) can block forever: \(\*peerLink\)\.retryingBroadcastLoop can return without receiving it`
				}
				close(done)
			}()
		}
		select {
		case items := <-p.queued:
			queue = append(queue, items...)
		case <-done:
			done = nil
		case err := <-fail:
			_ = err
		case <-p.term:
			return
		}
	}
}

// impatientBroadcastLoop gives up on a write that takes too long and
// starts the next without hearing from the last: two writes can fail,
// and the second report waits for good once the loop has returned.
func (p *peerLink) impatientBroadcastLoop(timeout time.Duration) {
	var (
		queue  []string
		done   chan struct{}
		fail   = make(chan error, 1)
		failed bool
	)
	for {
		if done == nil && len(queue) > 0 {
			batch := queue
			queue = nil
			done = make(chan struct{})
			go func() {
				if err := p.write(batch); err != nil {
					fail <- err // want `send on fail \(chan error, cap 1\) can block forever: \(\*peerLink\)\.impatientBroadcastLoop can return without receiving it`
					return
				}
				close(done)
			}()
		}
		select {
		case items := <-p.queued:
			if !failed {
				queue = append(queue, items...)
			}
		case <-done:
			done = nil
		case <-time.After(timeout):
			done = nil
		case <-fail:
			failed = true
		case <-p.term:
			return
		}
	}
}
