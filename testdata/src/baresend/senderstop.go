package baresend

import (
	"sync/atomic"
	"time"

	"baresend/retrykit"
)

// A receiver whose only stop is fired by the goroutine that sends to it,
// as that goroutine's last act, is running at each of those sends: the
// audit tier. A partition consumer's events loop asks its dispatcher to
// clear the queue on a seek and on every reconnect, and closes the
// dispatcher's stop channel only while it handles the close request,
// after which it returns. The constructor's first clear comes before it
// starts the events loop, so the stop cannot have fired then either.

type seekRequest struct{ done chan struct{} }

type closeRequest struct{ done chan struct{} }

type partitionConsumer struct {
	state     atomic.Int32 // 0 init, 1 ready, 2 closed
	events    chan any
	reconnect chan struct{}
	connected chan struct{}
	queue     chan []int
	clearQ    chan func(next int)
	closed    chan struct{}
}

func NewPartitionConsumer() *partitionConsumer {
	pc := &partitionConsumer{
		events:    make(chan any, 10),
		reconnect: make(chan struct{}, 1),
		connected: make(chan struct{}),
		queue:     make(chan []int, 100),
		clearQ:    make(chan func(next int)),
		closed:    make(chan struct{}),
	}
	pc.grabConn()
	pc.state.Store(1)
	go pc.dispatcher()
	go pc.runEventsLoop()
	return pc
}

func (pc *partitionConsumer) runEventsLoop() {
	for {
		select {
		case <-pc.reconnect:
			pc.reconnectToBroker()
		case ev := <-pc.events:
			switch ev := ev.(type) {
			case *seekRequest:
				pc.clearQueue()
				close(ev.done)
			case *closeRequest:
				pc.internalClose(ev)
				return
			}
		}
	}
}

// reconnectToBroker retries through a helper that calls the operation in
// place: the clear it makes runs on the events loop.
func (pc *partitionConsumer) reconnectToBroker() {
	retrykit.Retry(func() error {
		if pc.state.Load() != 1 {
			return nil
		}
		pc.grabConn()
		return nil
	}, time.Second)
}

func (pc *partitionConsumer) grabConn() {
	pc.clearQueue()
}

func (pc *partitionConsumer) internalClose(req *closeRequest) {
	pc.state.Store(2)
	close(pc.closed)
	close(req.done)
}

func (pc *partitionConsumer) clearQueue() {
	if pc.state.Load() != 1 {
		return
	}
	done := make(chan struct{})
	pc.clearQ <- func(int) { close(done) } // want `\[audit: its receiver \(\*partitionConsumer\)\.dispatcher is stopped only by \(\*partitionConsumer\)\.runEventsLoop, which makes this send and does not reach it after the stop\]`
	<-done
}

// dispatcher returns on the stop channel, or when a channel it reads is
// closed, which none ever is: only the events loop's close stops it.
func (pc *partitionConsumer) dispatcher() {
	var pending []int
	for {
		var queue chan []int
		if len(pending) == 0 {
			queue = pc.queue
		}
		select {
		case <-pc.closed:
			return
		case _, ok := <-pc.connected:
			if !ok {
				return
			}
		case msgs, ok := <-queue:
			if !ok {
				return
			}
			pending = msgs
		case f := <-pc.clearQ:
			pending = nil
			f(0)
		}
	}
}

// Seek and Close are the requests the events loop serves; what is said
// of sends like theirs is the business of selfstop.go and percall.go.
func (pc *partitionConsumer) Seek() {
	req := &seekRequest{done: make(chan struct{})}
	pc.events <- req
	<-req.done
}

func (pc *partitionConsumer) Close() {
	req := &closeRequest{done: make(chan struct{})}
	pc.events <- req
	<-req.done
}

// Connected tells the dispatcher of a new connection from the caller's
// goroutine, never closing connected: a plain send the dispatcher stops
// taking once the events loop closed its stop channel.
func (pc *partitionConsumer) Connected() {
	pc.connected <- struct{}{} // want `send on pc\.connected \(chan struct\{\}, unbuffered\) can block forever: its receiver \(\*partitionConsumer\)\.dispatcher can stop receiving`
}

// pausingConsumer's events loop closes the dispatcher's stop channel on a
// pause request and keeps running: a later seek finds the dispatcher gone.
type pausingConsumer struct {
	events chan any
	clearQ chan func()
	closed chan struct{}
}

type pauseRequest struct{}

func NewPausingConsumer() *pausingConsumer {
	pc := &pausingConsumer{events: make(chan any), clearQ: make(chan func()), closed: make(chan struct{})}
	go pc.dispatcher()
	go pc.loop()
	return pc
}

func (pc *pausingConsumer) loop() {
	for ev := range pc.events {
		switch ev.(type) {
		case *seekRequest:
			pc.clearQ <- func() {} // want `send on pc\.clearQ \(chan func\(\), unbuffered\) can block forever: its receiver \(\*pausingConsumer\)\.dispatcher can stop receiving`
		case *pauseRequest:
			close(pc.closed)
		}
	}
}

func (pc *pausingConsumer) dispatcher() {
	for {
		select {
		case <-pc.closed:
			return
		case f := <-pc.clearQ:
			f()
		}
	}
}

func (pc *pausingConsumer) Seek()  { pc.events <- &seekRequest{} }
func (pc *pausingConsumer) Pause() { pc.events <- &pauseRequest{} }

// detachedConsumer reconnects through a helper that runs the operation
// on a goroutine of its own, which may clear the queue after the events
// loop has closed the stop channel and returned.
type detachedConsumer struct {
	events chan any
	clearQ chan func()
	closed chan struct{}
}

func NewDetachedConsumer() *detachedConsumer {
	pc := &detachedConsumer{events: make(chan any), clearQ: make(chan func()), closed: make(chan struct{})}
	go pc.dispatcher()
	go pc.loop()
	return pc
}

func (pc *detachedConsumer) loop() {
	for ev := range pc.events {
		switch ev.(type) {
		case *seekRequest:
			retrykit.Detached(func() error { pc.clearQueue(); return nil })
		case *closeRequest:
			close(pc.closed)
			return
		}
	}
}

func (pc *detachedConsumer) clearQueue() {
	pc.clearQ <- func() {} // want `send on pc\.clearQ \(chan func\(\), unbuffered\) can block forever: its receiver \(\*detachedConsumer\)\.dispatcher can stop receiving`
}

func (pc *detachedConsumer) dispatcher() {
	for {
		select {
		case <-pc.closed:
			return
		case f := <-pc.clearQ:
			f()
		}
	}
}

func (pc *detachedConsumer) Seek()  { pc.events <- &seekRequest{} }
func (pc *detachedConsumer) Close() { pc.events <- &closeRequest{} }

// restartingConsumer's channels are made once, by the constructor, and
// Start may run the loops again: the loop of one start may have closed
// the stop channel that the dispatcher of the next start gives up on,
// so the proof stands.
type restartingConsumer struct {
	events chan any
	clearQ chan func()
	closed chan struct{}
}

func NewRestartingConsumer() *restartingConsumer {
	return &restartingConsumer{events: make(chan any), clearQ: make(chan func()), closed: make(chan struct{})}
}

func (pc *restartingConsumer) Start() {
	go pc.dispatcher()
	go pc.loop()
}

func (pc *restartingConsumer) loop() {
	for ev := range pc.events {
		switch ev.(type) {
		case *seekRequest:
			pc.clearQ <- func() {} // want `send on pc\.clearQ \(chan func\(\), unbuffered\) can block forever: its receiver \(\*restartingConsumer\)\.dispatcher can stop receiving`
		case *closeRequest:
			close(pc.closed)
			return
		}
	}
}

func (pc *restartingConsumer) dispatcher() {
	for {
		select {
		case <-pc.closed:
			return
		case f := <-pc.clearQ:
			f()
		}
	}
}

func (pc *restartingConsumer) Seek()  { pc.events <- &seekRequest{} }
func (pc *restartingConsumer) Close() { pc.events <- &closeRequest{} }
