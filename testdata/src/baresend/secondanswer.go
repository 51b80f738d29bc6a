package baresend

import "errors"

// A gossiper's requests carry a one-slot error channel that the peer
// reads once. The handler processes the message, which answers on most
// ways through it, and then signals the message's dependents: when that
// fails, it answers again, and a message that was already answered (its
// chain rejected, say) leaves the handler on the second send for good.
type gossipMsg struct {
	payload []byte
	err     chan error
}

type gossiper struct {
	barrier interface{ SignalDependents([]byte) error }
	chain   []byte
}

func (g *gossiper) ProcessRemote(payload []byte) chan error {
	errChan := make(chan error, 1)
	go g.handle(&gossipMsg{payload: payload, err: errChan})
	return errChan
}

func (g *gossiper) handle(m *gossipMsg) {
	g.process(m)
	if err := g.barrier.SignalDependents(m.payload); err != nil {
		m.err <- err // want `send on m\.err \(chan error, cap 1\) can block forever: it can answer the request a second time in one run of \(\*gossiper\)\.handle, and the channel holds one answer: a requester that takes one leaves it waiting$`
		return
	}
}

func (g *gossiper) process(m *gossipMsg) {
	if len(m.payload) == 0 {
		return // premature: answered when it is processed again
	}
	if string(m.payload[:1]) != string(g.chain) {
		m.err <- errors.New("wrong chain")
		return
	}
	m.err <- nil
}

// Fixed: the handler returns once process has answered.
func (g *gossiper) handleChecked(m *gossipMsg) {
	if !g.processChecked(m) {
		return
	}
	if err := g.barrier.SignalDependents(m.payload); err != nil {
		m.err <- err // ok: reached only when processChecked did not answer
	}
}

func (g *gossiper) processChecked(m *gossipMsg) bool {
	if len(m.payload) == 0 {
		m.err <- errors.New("empty")
		return false
	}
	return true
}

// Two answers in a row, the second on every path: the slot is taken.
func (g *gossiper) handleTwice(m *gossipMsg) {
	m.err <- nil // want `\[audit: no receiver of it is visible in this package\]`
	if err := g.barrier.SignalDependents(m.payload); err != nil {
		m.err <- err // want `send on m\.err \(chan error, cap 1\) can block forever: it can answer the request a second time in one run of \(\*gossiper\)\.handleTwice`
	}
}

// One answer: no second.
func (g *gossiper) handleOnce(m *gossipMsg) {
	err := g.barrier.SignalDependents(m.payload)
	m.err <- err // ok: the one answer
}

// A reply channel its reader drains in a loop takes every answer.
type streamedMsg struct {
	progress chan int
}

func (g *gossiper) ProcessStreamed() {
	m := &streamedMsg{progress: make(chan int, 1)}
	go g.report(m)
	for p := range m.progress {
		_ = p
	}
}

func (g *gossiper) report(m *streamedMsg) {
	m.progress <- 1
	m.progress <- 2 // ok: the reader ranges over the channel
	close(m.progress)
}

// An RPC client in POST mode: a request made after shutdown is answered
// at once, and then still queued for the send handler, whose drain at
// shutdown answers it again; the second answer finds the slot full and
// the handler waits for good.
type postRequest struct {
	body         []byte
	responseChan chan error
}

type postClient struct {
	shutdown     chan struct{}
	sendPostChan chan *postRequest
}

func (c *postClient) Do(body []byte) chan error {
	req := &postRequest{body: body, responseChan: make(chan error, 1)}
	c.sendPost(req)
	return req.responseChan
}

func (c *postClient) sendPost(req *postRequest) {
	select {
	case <-c.shutdown:
		req.responseChan <- errShutdown // want `\[audit: no receiver of it is visible in this package\]`
	default:
	}
	select {
	case c.sendPostChan <- req:
	case <-c.shutdown:
		return
	}
}

var errShutdown = errors.New("client shut down")

func (c *postClient) sendHandler() {
	for {
		select {
		case <-c.shutdown:
			for {
				select {
				case req := <-c.sendPostChan:
					req.responseChan <- errShutdown // want `send on req\.responseChan \(chan error, cap 1\) can block forever: it can answer the request a second time after \(\*postClient\)\.sendPost answered it and still handed it on, and the channel holds one answer: a requester that takes one leaves it waiting$`
				default:
					return
				}
			}
		case req := <-c.sendPostChan:
			req.responseChan <- nil // want `send on req\.responseChan \(chan error, cap 1\) can block forever: it can answer the request a second time after \(\*postClient\)\.sendPost`
		}
	}
}

// Fixed: the request answered at shutdown is never queued.
type fixedPostClient struct {
	shutdown     chan struct{}
	sendPostChan chan *postRequest
}

func (c *fixedPostClient) Do(body []byte) chan error {
	req := &postRequest{body: body, responseChan: make(chan error, 1)}
	c.sendPost(req)
	return req.responseChan
}

func (c *fixedPostClient) sendPost(req *postRequest) {
	select {
	case <-c.shutdown:
		req.responseChan <- errShutdown // want `\[audit: no receiver of it is visible in this package\]`
		return
	default:
	}
	select {
	case c.sendPostChan <- req:
	case <-c.shutdown:
	}
}

// Not a second answer: a queued request was not answered before, and the
// send stays in the audit tier, with no reader in sight.
func (c *fixedPostClient) sendHandler() {
	for req := range c.sendPostChan {
		req.responseChan <- nil // want `\[audit: no receiver of it is visible in this package\]`
	}
}
