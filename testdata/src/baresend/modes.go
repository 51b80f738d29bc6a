package baresend

import "sync/atomic"

// A worker that drains on shutdown chooses its mode by asking its
// options; its dispatcher asks once, its pollers before each send. In
// drain mode the dispatcher ranges over the queue until it is closed, so
// the bare send waits for a receiver that is still there; the
// dispatcher's select that gives up on stop runs only in the other mode,
// where the pollers select on stop too. Whether the answer can change in
// between is not shown: audited.
type drainWorker struct {
	queue chan int
	stop  chan struct{}
	drain *atomic.Bool
}

func (w *drainWorker) draining() bool { return w.drain != nil && w.drain.Load() }

func (w *drainWorker) Start() {
	go w.dispatch()
	go w.poll()
}

func (w *drainWorker) Stop() { close(w.stop) }

func (w *drainWorker) dispatch() {
	if w.draining() {
		for t := range w.queue {
			keep(t)
		}
		return
	}
	for {
		select {
		case <-w.stop:
			return
		case t, ok := <-w.queue:
			if !ok {
				return
			}
			keep(t)
		}
	}
}

func (w *drainWorker) poll() {
	t := compute()
	if w.draining() {
		w.queue <- t // want `send on w\.queue .*\[audit: the send runs only when \(\*drainWorker\)\.draining is true, and its receiver gives up here only when it is false; that the answer cannot change in between is not shown\]`
	} else {
		select {
		case w.queue <- t:
		case <-w.stop:
		}
	}
}

func newDrainWorker(drain *atomic.Bool) *drainWorker {
	return &drainWorker{queue: make(chan int), stop: make(chan struct{}), drain: drain}
}

// eagerWorker's dispatcher gives up on stop whatever the mode: the bare
// send in drain mode can outlive it. Reported.
type eagerWorker struct {
	queue chan int
	stop  chan struct{}
	drain *atomic.Bool
}

func (w *eagerWorker) draining() bool { return w.drain != nil && w.drain.Load() }

func (w *eagerWorker) Start() {
	go w.dispatch()
	go w.poll()
}

func (w *eagerWorker) Stop() { close(w.stop) }

func (w *eagerWorker) dispatch() {
	for {
		select {
		case <-w.stop:
			return
		case t := <-w.queue:
			keep(t)
		}
	}
}

func (w *eagerWorker) poll() {
	t := compute()
	if w.draining() {
		w.queue <- t // want `send on w\.queue \(chan int, unbuffered\) can block forever: its receiver \(\*eagerWorker\)\.dispatch can stop receiving`
	} else {
		select {
		case w.queue <- t:
		case <-w.stop:
		}
	}
}

func newEagerWorker(drain *atomic.Bool) *eagerWorker {
	return &eagerWorker{queue: make(chan int), stop: make(chan struct{}), drain: drain}
}
