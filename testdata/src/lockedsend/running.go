package lockedsend

import (
	"errors"
	"sync"
)

var errReconnected = errors.New("reconnected")

func pullNext() error { return nil }

// consumerSub is a pull consumer's subscription. Its loop receives the
// errors queued on errs and takes the subscription's lock to reset the
// pending count, so a sender that holds the lock while errs is full waits
// for a loop that waits for the lock.
type consumerSub struct {
	sync.Mutex
	errs    chan error
	done    chan struct{}
	status  chan int
	pending int
}

var consumers []*consumerSub

// consume queues the first pull's error under the lock before it starts
// the loop: the loop is not running yet, so it cannot be waiting for the
// lock. The loop queues a reconnect notice to itself under the lock: it
// does not wait for itself. Neither closes a cycle: audited.
func consume(status chan int) *consumerSub {
	s := &consumerSub{errs: make(chan error, 10), done: make(chan struct{}), status: status}
	consumers = append(consumers, s)
	s.Lock()
	if err := pullNext(); err != nil {
		s.errs <- err // want `send on s\.errs can block while s is held.*\[audit: `
	}
	s.Unlock()
	go func() {
		for {
			select {
			case <-s.status:
				s.Lock()
				s.errs <- errReconnected // want `send on s\.errs can block while s is held.*\[audit: `
				s.Unlock()
			case <-s.errs:
				s.Lock()
				s.pending = 0
				s.Unlock()
			case <-s.done:
				return
			}
		}
	}()
	return s
}

// heartbeatFailed runs on the heartbeat timer's goroutine and queues its
// error under the lock: once errs is full it waits for the loop, which
// waits for the lock. Reported.
func (s *consumerSub) heartbeatFailed(err error) {
	s.Lock()
	defer s.Unlock()
	s.errs <- err // want `send on s\.errs can block while s is held: its receiver the function literal in consume takes s too`
}

// fetchErrors makes a subscription of its own whose reader takes its lock
// for each error. That reader is of this subscription's errs, not of
// consume's: it closes no cycle with the sends there.
func fetchErrors() *consumerSub {
	s := &consumerSub{errs: make(chan error, 1), done: make(chan struct{})}
	consumers = append(consumers, s)
	go func() {
		for err := range s.errs {
			s.Lock()
			handleFetchErr(err)
			s.Unlock()
		}
	}()
	return s
}

func handleFetchErr(error) {}
