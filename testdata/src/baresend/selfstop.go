package baresend

import "sync/atomic"

// A loop that returns only after it takes a close request: the Close that
// sends the request is the only thing that stops it. For that send to find
// the loop gone, the loop must have taken the request of an earlier Close,
// so it blocks only when Close runs twice: the audit tier. Every other
// send on the loop's channel is stranded by that Close, and stays a
// default finding.

type stopReq struct{ done chan struct{} }

type ackMsg struct{ id uint64 }

type topicPartition struct {
	state  atomic.Int32 // 0 ready, 1 closed
	events chan any
	closed chan struct{}
}

func NewTopicPartition() *topicPartition {
	p := &topicPartition{events: make(chan any), closed: make(chan struct{})}
	go p.loop()
	return p
}

func (p *topicPartition) loop() {
	for {
		select {
		case <-p.closed: // closed only on the close request's branch below
			return
		case ev := <-p.events:
			switch ev := ev.(type) {
			case *ackMsg:
				_ = ev.id
			case *stopReq:
				p.shutdown(ev)
				return
			}
		}
	}
}

func (p *topicPartition) shutdown(req *stopReq) {
	p.state.Store(1)
	close(p.closed)
	close(req.done)
}

func (p *topicPartition) Close() {
	if p.state.Load() != 0 {
		return
	}
	req := &stopReq{done: make(chan struct{})}
	p.events <- req // want `\[audit: its receiver \(\*topicPartition\)\.loop stops only on the value this send makes: it blocks only if the send runs twice for one channel\]`
	<-req.done
}

// Ack races Close: an Ack that passed the state test before Close and
// sends after the loop returned blocks for good.
func (p *topicPartition) Ack(id uint64) {
	if p.state.Load() != 0 {
		return
	}
	p.events <- &ackMsg{id: id} // want `send on p\.events \(chan any, unbuffered\) can block forever: its receiver \(\*topicPartition\)\.loop can stop receiving`
}

// restarter's Restart sends one stop request per round into a loop that
// returns on the first: the second finds it gone.
type restarter struct {
	events  chan any
	stopped chan struct{}
}

func NewRestarter() *restarter {
	r := &restarter{events: make(chan any, 1), stopped: make(chan struct{})}
	go r.loop()
	return r
}

func (r *restarter) loop() {
	for {
		select {
		case <-r.stopped:
			return
		case ev := <-r.events:
			if req, ok := ev.(*stopReq); ok {
				close(r.stopped)
				close(req.done)
				return
			}
		}
	}
}

func (r *restarter) Restart(rounds int) {
	for range rounds {
		r.events <- &stopReq{done: make(chan struct{})} // want `send on r\.events \(chan any, cap 1\) can block forever: its receiver \(\*restarter\)\.loop can stop receiving`
	}
}
