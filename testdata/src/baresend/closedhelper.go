package baresend

import (
	"sync"
	"time"
)

// A dispatcher that leaves its loop when a helper says its queue is
// closed: the helper returns false only on the !ok of its own receive
// from the same queue, so the loop, like one that tests the !ok itself,
// stops only once the queue is closed, and no send on it can be stranded.

type taskPool struct {
	submitMu sync.RWMutex
	stopped  bool
	tasks    chan func()
	workers  chan func()
	waiting  []func()
}

func newTaskPool() *taskPool {
	p := &taskPool{tasks: make(chan func()), workers: make(chan func())}
	go p.dispatch(time.Second)
	return p
}

func (p *taskPool) dispatch(idle time.Duration) {
	timeout := time.NewTimer(idle)
	defer timeout.Stop()
	for {
		if len(p.waiting) != 0 {
			if !p.drainWaiting() {
				return
			}
			continue
		}
		select {
		case task, ok := <-p.tasks:
			if !ok {
				return
			}
			p.waiting = append(p.waiting, task)
		case <-timeout.C:
			timeout.Reset(idle)
		}
	}
}

// drainWaiting is false only once tasks is closed.
func (p *taskPool) drainWaiting() bool {
	select {
	case task, ok := <-p.tasks:
		if !ok {
			return false
		}
		p.waiting = append(p.waiting, task)
	case p.workers <- p.waiting[0]:
		p.waiting = p.waiting[1:]
	}
	return true
}

func (p *taskPool) Submit(task func()) {
	p.submitMu.RLock()
	defer p.submitMu.RUnlock()
	if p.stopped {
		return
	}
	p.tasks <- task
}

// lossyPool's helper also gives up when its workers are slow: its loop
// can leave with tasks still to come.
type lossyPool struct {
	tasks   chan func()
	workers chan func()
	waiting []func()
}

func newLossyPool() *lossyPool {
	p := &lossyPool{tasks: make(chan func()), workers: make(chan func())}
	go p.dispatch()
	return p
}

func (p *lossyPool) dispatch() {
	for {
		if len(p.waiting) != 0 {
			if !p.drainWaiting() {
				return
			}
			continue
		}
		select {
		case task, ok := <-p.tasks:
			if !ok {
				return
			}
			p.waiting = append(p.waiting, task)
		case <-time.After(time.Second):
		}
	}
}

func (p *lossyPool) drainWaiting() bool {
	select {
	case task, ok := <-p.tasks:
		if !ok {
			return false
		}
		p.waiting = append(p.waiting, task)
	case p.workers <- p.waiting[0]:
		p.waiting = p.waiting[1:]
	case <-time.After(time.Minute):
		return false // workers stuck: give up
	}
	return true
}

func (p *lossyPool) Submit(task func()) {
	p.tasks <- task // want `send on p\.tasks \(chan func\(\), unbuffered\) can block forever: its receiver \(\*lossyPool\)\.dispatch can stop receiving`
}

// relayPool's helper watches another pool's queue: its close says nothing
// of this one's.
type relayPool struct {
	tasks    chan func()
	upstream chan func()
}

func newRelayPool() *relayPool {
	p := &relayPool{tasks: make(chan func()), upstream: make(chan func())}
	go p.dispatch()
	return p
}

func (p *relayPool) dispatch() {
	for {
		if !p.pullUpstream() {
			return
		}
		select {
		case task, ok := <-p.tasks:
			if !ok {
				return
			}
			task()
		case <-time.After(time.Second):
		}
	}
}

func (p *relayPool) pullUpstream() bool {
	select {
	case task, ok := <-p.upstream:
		if !ok {
			return false
		}
		task()
	default:
	}
	return true
}

func (p *relayPool) Submit(task func()) {
	p.tasks <- task // want `send on p\.tasks \(chan func\(\), unbuffered\) can block forever: its receiver \(\*relayPool\)\.dispatch can stop receiving`
}
