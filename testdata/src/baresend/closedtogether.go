package baresend

import "sync/atomic"

// A loop whose every stop closes the channel a send is on, or is the
// value that send makes, leaves no send waiting for good: one left behind
// is woken by the close and panics, a bug of another kind. The audit
// tier. A partition producer's loop returns on its close request, or when
// the shutdown closes its data and command channels together; the
// shutdown runs from Close's request or from the reconnect goroutine
// when the topic is gone.

type closeProducerRequest struct{ done chan struct{} }

type flushRequest struct{ done chan struct{} }

type partitionProducer struct {
	state   atomic.Int32 // 0 ready, 1 closing
	data    chan []byte
	cmds    chan any
	lost    chan struct{}
	flushed chan struct{}
}

func NewPartitionProducer() *partitionProducer {
	p := &partitionProducer{
		data: make(chan []byte, 10), cmds: make(chan any, 10),
		lost: make(chan struct{}, 1), flushed: make(chan struct{}, 1),
	}
	go p.reconnectLoop()
	go p.runEventsLoop()
	return p
}

func (p *partitionProducer) runEventsLoop() {
	for {
		select {
		case msg, ok := <-p.data:
			if !ok {
				return
			}
			_ = msg
		case cmd, ok := <-p.cmds:
			if !ok {
				return
			}
			switch cmd := cmd.(type) {
			case *flushRequest:
				close(cmd.done)
			case *closeProducerRequest:
				p.doClose()
				close(cmd.done)
				return
			}
		}
	}
}

// reconnectLoop gives up on the producer when the topic is gone.
func (p *partitionProducer) reconnectLoop() {
	for range p.lost {
		if topicGone() {
			p.doClose()
			return
		}
	}
}

func (p *partitionProducer) doClose() {
	if !p.state.CompareAndSwap(0, 1) {
		return
	}
	defer close(p.data)
	defer close(p.cmds)
}

func (p *partitionProducer) Close() {
	req := &closeProducerRequest{done: make(chan struct{})}
	p.cmds <- req // want `\[audit: every stop of its receiver \(\*partitionProducer\)\.runEventsLoop closes the channel too, or is the value this send makes: a send left behind panics rather than waits, unless the send runs twice for one channel\]`
	<-req.done
}

func topicGone() bool { return true }

// hastyProducer's shutdown closes only the data channel: once the loop
// has returned on it, a Close waits on the command channel for good.
type hastyProducer struct {
	state atomic.Int32
	data  chan []byte
	cmds  chan any
	lost  chan struct{}
}

func NewHastyProducer() *hastyProducer {
	p := &hastyProducer{data: make(chan []byte), cmds: make(chan any), lost: make(chan struct{}, 1)}
	go p.reconnectLoop()
	go p.runEventsLoop()
	return p
}

func (p *hastyProducer) runEventsLoop() {
	for {
		select {
		case msg, ok := <-p.data:
			if !ok {
				return
			}
			_ = msg
		case cmd := <-p.cmds:
			if req, ok := cmd.(*closeProducerRequest); ok {
				p.doClose()
				close(req.done)
				return
			}
		}
	}
}

func (p *hastyProducer) reconnectLoop() {
	for range p.lost {
		if topicGone() {
			p.doClose()
			return
		}
	}
}

func (p *hastyProducer) doClose() {
	if p.state.CompareAndSwap(0, 1) {
		close(p.data)
	}
}

func (p *hastyProducer) Close() {
	req := &closeProducerRequest{done: make(chan struct{})}
	p.cmds <- req // want `send on p\.cmds \(chan any, unbuffered\) can block forever: its receiver \(\*hastyProducer\)\.runEventsLoop can stop receiving`
	<-req.done
}

// A batching writer's Flush polls its buffer loop until the buffer is
// empty, asking on a channel the loop answers on. Close stops the loop
// and then closes every channel, the polling one included: a Flush that
// races Close is woken by that close on whichever trip it waits, and
// panics. The audit tier.
type batchWriter struct {
	lines chan string
	info  chan int
	stop  chan struct{}
	done  chan struct{}
}

func NewBatchWriter() *batchWriter {
	w := &batchWriter{lines: make(chan string), info: make(chan int), stop: make(chan struct{}), done: make(chan struct{})}
	go w.bufferLoop()
	return w
}

func (w *batchWriter) bufferLoop() {
	var buf []string
	for {
		select {
		case l := <-w.lines:
			buf = append(buf, l)
		case <-w.info:
			buf = buf[:0]
			w.info <- len(buf)
		case <-w.stop:
			w.done <- struct{}{}
			return
		}
	}
}

func (w *batchWriter) Flush() {
	for {
		w.info <- 0 // want `\[audit: every stop of its receiver \(\*batchWriter\)\.bufferLoop closes the channel too`
		if <-w.info == 0 {
			return
		}
	}
}

func (w *batchWriter) Close() {
	close(w.stop)
	<-w.done
	close(w.lines)
	close(w.info)
}

// leakyWriter's Close stops the loop and leaves the polling channel open:
// a Flush that races it waits for good.
type leakyWriter struct {
	info chan int
	stop chan struct{}
}

func NewLeakyWriter() *leakyWriter {
	w := &leakyWriter{info: make(chan int), stop: make(chan struct{})}
	go w.bufferLoop()
	return w
}

func (w *leakyWriter) bufferLoop() {
	for {
		select {
		case <-w.info:
			w.info <- 0
		case <-w.stop:
			return
		}
	}
}

func (w *leakyWriter) Flush() {
	for {
		w.info <- 0 // want `send on w\.info \(chan int, unbuffered\) can block forever: its receiver \(\*leakyWriter\)\.bufferLoop can stop receiving`
		if <-w.info == 0 {
			return
		}
	}
}

func (w *leakyWriter) Close() { close(w.stop) }
