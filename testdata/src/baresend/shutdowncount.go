package baresend

import "sync/atomic"

// A shutdown counter: Stop raises it with an atomic Add and stops the
// receiver only when it was the first to do so; senders test it with an
// atomic Load and return once it is not zero. The counter never comes
// down, so once Stop has raised it no send gets past the test: only
// sends that passed it just before, more of them than the buffer holds,
// can block. That narrow race is left to the audit tier.

type syncConfig struct {
	MaxPeers int
}

type peerRef struct{ id int32 }

type newPeerMsg struct{ peer *peerRef }

type isCurrentMsg struct{ reply chan bool }

// syncManager is a block-sync loop fed by every peer: its queue is sized
// three messages per peer the node accepts.
type syncManager struct {
	shutdown int32
	msgChan  chan interface{}
	quit     chan struct{}
}

func newSyncManager(cfg syncConfig) *syncManager {
	sm := &syncManager{
		msgChan: make(chan interface{}, cfg.MaxPeers*3),
		quit:    make(chan struct{}),
	}
	go sm.blockHandler()
	return sm
}

func (sm *syncManager) blockHandler() {
	for {
		select {
		case m := <-sm.msgChan:
			if msg, ok := m.(isCurrentMsg); ok {
				msg.reply <- true
			}
		case <-sm.quit:
			return
		}
	}
}

func (sm *syncManager) Stop() {
	if atomic.AddInt32(&sm.shutdown, 1) != 1 {
		return
	}
	close(sm.quit)
}

func (sm *syncManager) NewPeer(p *peerRef) {
	if atomic.LoadInt32(&sm.shutdown) != 0 {
		return
	}
	sm.msgChan <- &newPeerMsg{peer: p} // want `send on sm.msgChan \(chan interface\{\}, cap cfg.MaxPeers \* 3\) can block forever: its receiver \(\*syncManager\).blockHandler can stop receiving, .* \[audit: the send runs only while shutdown is 0, which is set before its receiver stops: only sends that pass that test just before it is set can block, and the buffer holds cfg.MaxPeers \* 3 of them\]`
}

// IsCurrent does not test shutdown: a call after Stop waits for good.
func (sm *syncManager) IsCurrent() bool {
	reply := make(chan bool)
	sm.msgChan <- isCurrentMsg{reply: reply} // want `send on sm.msgChan \(chan interface\{\}, cap cfg.MaxPeers \* 3\) can block forever: its receiver \(\*syncManager\).blockHandler can stop receiving, and no liveness case`
	return <-reply
}

// restartableFeed's Resume brings the counter down again: a send that
// passed the test may find the feed stopped after a later Stop, however
// long after, so the test orders nothing.
type restartableFeed struct {
	stopped int32
	events  chan int
	quit    chan struct{}
}

func newRestartableFeed(size int) *restartableFeed {
	f := &restartableFeed{events: make(chan int, size), quit: make(chan struct{})}
	go f.run()
	return f
}

func (f *restartableFeed) run() {
	for {
		select {
		case <-f.events:
		case <-f.quit:
			return
		}
	}
}

func (f *restartableFeed) Stop() {
	if atomic.AddInt32(&f.stopped, 1) != 1 {
		return
	}
	close(f.quit)
}

func (f *restartableFeed) Resume() {
	atomic.AddInt32(&f.stopped, -1)
}

func (f *restartableFeed) Publish(v int) {
	if atomic.LoadInt32(&f.stopped) != 0 {
		return
	}
	f.events <- v // want `send on f.events \(chan int, cap size\) can block forever: its receiver \(\*restartableFeed\).run can stop receiving, and no liveness case`
}

// handoffQueue is unbuffered: the one send that races Stop past the test
// is enough to block for good.
type handoffQueue struct {
	shutdown int32
	work     chan int
	quit     chan struct{}
}

func newHandoffQueue() *handoffQueue {
	q := &handoffQueue{work: make(chan int), quit: make(chan struct{})}
	go q.worker()
	return q
}

func (q *handoffQueue) worker() {
	for {
		select {
		case <-q.work:
		case <-q.quit:
			return
		}
	}
}

func (q *handoffQueue) Stop() {
	if atomic.AddInt32(&q.shutdown, 1) != 1 {
		return
	}
	close(q.quit)
}

func (q *handoffQueue) Submit(v int) {
	if atomic.LoadInt32(&q.shutdown) != 0 {
		return
	}
	q.work <- v // want `send on q.work \(chan int, unbuffered\) can block forever: its receiver \(\*handoffQueue\).worker can stop receiving, and no liveness case`
}
