package baresend

import "errors"

var (
	errPullFailed = errors.New("pull request failed")
	errConnClosed = errors.New("connection closed")
)

// pullSub is a consumer's subscription: one loop per subscription reads
// connection status changes and the errors queued on errs, and stops when
// done is closed.
type pullSub struct {
	errs   chan error
	done   chan struct{}
	status chan int
}

const statusClosed = 3

var pullSubs []*pullSub

func handleErr(error) {}

func pull() error { return errPullFailed }

// startPull queues the first pull's error before it starts the loop that
// reads errs: the loop has not started, so it cannot be the receiver that
// went away. Whether ten errors could be queued first is not shown:
// audited. The loop queues an error to itself when the connection closes:
// it is the channel's only receiver, so while it sends it has not stopped.
// Audited too.
func startPull(status chan int) *pullSub {
	s := &pullSub{errs: make(chan error, 10), done: make(chan struct{}), status: status}
	pullSubs = append(pullSubs, s) // in view of the heartbeat timer from here on
	if err := pull(); err != nil {
		s.errs <- err // want `send on s\.errs .*\[audit: its receiver is started only after this send, so it cannot have stopped yet\]`
	}
	go func() {
		for {
			select {
			case st := <-s.status:
				if st == statusClosed {
					s.errs <- errConnClosed // want `send on s\.errs .*\[audit: its receiver is the sending goroutine itself, which cannot have stopped while it sends\]`
				}
			case err := <-s.errs:
				handleErr(err)
			case <-s.done:
				return
			}
		}
	}()
	return s
}

// heartbeatMissed runs on the heartbeat timer's goroutine: the loop can
// stop on done first, and then the eleventh error blocks for good.
// Reported.
func (s *pullSub) heartbeatMissed(err error) {
	s.errs <- err // want `send on s\.errs \(chan error, cap 1 or 10\) can block forever: its receiver the function literal in startPull can stop receiving`
}

// fetchSub starts its loop before it queues the first pull's error: the
// loop may already have stopped on done. Reported.
type fetchSub struct {
	errs chan error
	done chan struct{}
}

func startFetch() *fetchSub {
	f := &fetchSub{errs: make(chan error, 1), done: make(chan struct{})}
	go func() {
		for {
			select {
			case err := <-f.errs:
				handleErr(err)
			case <-f.done:
				return
			}
		}
	}()
	for range 3 {
		if err := pull(); err != nil {
			f.errs <- err // want `send on f\.errs \(chan error, cap 1\) can block forever: its receiver the function literal in startFetch can stop receiving`
		}
	}
	return f
}

// fetchOnce makes a subscription of its own and waits for one error, or
// gives up after a while. Its receive is on that subscription's errs, not
// on startPull's: its giving up proves nothing about the sends above.
func fetchOnce(timeout <-chan struct{}) error {
	s := &pullSub{errs: make(chan error, 1), done: make(chan struct{})}
	pullSubs = append(pullSubs, s)
	go func() {
		s.errs <- pull() // want `send on s\.errs .*its receiver fetchOnce can stop receiving.*\[audit: its buffer \(cap 1 or 10\) is not shown to receive more values than it holds\]`
	}()
	select {
	case err := <-s.errs:
		return err
	case <-timeout:
		return errPullFailed
	}
}
