package baresend

import "errors"

// A discovery service queues each request to a node as a call for its
// dispatcher. initCall fills in the call's one-slot channels and hands the
// call over; when the service is already closing it answers the call
// itself. Every caller of initCall has just made the call and shown it to
// no one, and on that branch the select did not hand it over, so the
// dispatcher cannot have answered first: the one answer finds room.
//
// The near misses: a caller that registers the call before initCall
// (the dispatcher answers every registered call as it closes), a timer that may fail the
// call before the service closes, an answer sent after the
// select whichever case fired (the dispatcher may have answered), and a
// retry loop that answers into one buffer twice.

var errDiscClosed = errors.New("discovery closed")

type discCall struct {
	node string
	resp chan string
	err  chan error
}

type discovery struct {
	callCh  chan *discCall
	doneCh  chan *discCall
	closing chan struct{}
	pending map[string]*discCall
	logf    func(string)
}

func newDiscovery(logf func(string)) *discovery {
	d := &discovery{
		callCh:  make(chan *discCall),
		doneCh:  make(chan *discCall),
		closing: make(chan struct{}),
		pending: make(map[string]*discCall),
		logf:    logf,
	}
	go d.dispatch()
	return d
}

// Close stops the dispatcher and every call waiting on it, for good.
func (d *discovery) Close() { close(d.closing) }

func (d *discovery) callTo(node string) *discCall {
	c := &discCall{node: node}
	d.initCall(c)
	return c
}

func (d *discovery) initCall(c *discCall) {
	c.resp = make(chan string, 1)
	c.err = make(chan error, 1)
	d.logf("call " + c.node)
	select {
	case d.callCh <- c:
	case <-d.closing:
		c.err <- errDiscClosed // ok: nobody else has seen c.err
	}
}

func (d *discovery) trackedCallTo(node string) *discCall {
	c := &discCall{node: node}
	d.pending[node] = c
	d.initTrackedCall(c)
	return c
}

func (d *discovery) initTrackedCall(c *discCall) {
	c.err = make(chan error, 1)
	select {
	case d.callCh <- c:
	case <-d.closing:
		c.err <- errDiscClosed // want `send on c\.err \(chan error, cap 1\) can block forever: its receiver \(\*discovery\)\.callDone can stop receiving`
	}
}

func (d *discovery) timedCallTo(node string, after <-chan struct{}) *discCall {
	c := &discCall{node: node}
	d.initTimedCall(c, after)
	return c
}

func (d *discovery) initTimedCall(c *discCall, after <-chan struct{}) {
	c.err = make(chan error, 1)
	go expire(c.err, after)
	select {
	case d.callCh <- c:
	case <-d.closing:
		c.err <- errDiscClosed // want `send on c\.err \(chan error, cap 1\) can block forever: its receiver \(\*discovery\)\.callDone can stop receiving`
	}
}

// expire fails a call that was not answered in time.
func expire(errc chan<- error, after <-chan struct{}) {
	<-after
	select {
	case errc <- errors.New("timeout"):
	default:
	}
}

func (d *discovery) queuedCallTo(node string) *discCall {
	c := &discCall{node: node}
	d.initQueuedCall(c)
	return c
}

func (d *discovery) initQueuedCall(c *discCall) {
	c.err = make(chan error, 1)
	select {
	case d.callCh <- c:
	case <-d.closing:
	}
	c.err <- errors.New("queued") // want `send on c\.err \(chan error, cap 1\) can block forever: its receiver \(\*discovery\)\.callDone can stop receiving`
}

func (d *discovery) retriedCallTo(node string, tries int) *discCall {
	c := &discCall{node: node}
	d.initRetriedCall(c, tries)
	return c
}

func (d *discovery) initRetriedCall(c *discCall, tries int) {
	c.err = make(chan error, 1)
	for range tries {
		c.err <- errDiscClosed // want `send on c\.err \(chan error, cap 1\) can block forever: its receiver \(\*discovery\)\.callDone can stop receiving`
	}
}

// dispatch answers the calls it is handed until the service closes.
func (d *discovery) dispatch() {
	for {
		select {
		case c := <-d.callCh:
			d.pending[c.node] = c
		case <-d.closing:
			for _, c := range d.pending {
				select {
				case c.err <- errDiscClosed:
				default:
				}
			}
			return
		}
	}
}

// callDone tells the dispatcher a call is finished, discarding late
// answers until it listens, or until the service closes.
func (d *discovery) callDone(c *discCall) {
	for {
		select {
		case <-c.resp:
		case <-c.err:
		case d.doneCh <- c:
			return
		case <-d.closing:
			return
		}
	}
}

func answer(c *discCall) (string, error) {
	select {
	case r := <-c.resp:
		return r, nil
	case err := <-c.err:
		return "", err
	}
}

func (d *discovery) Lookup(node string) (string, error) {
	c := d.callTo(node)
	defer d.callDone(c)
	return answer(c)
}

func (d *discovery) LookupTracked(node string) (string, error) {
	c := d.trackedCallTo(node)
	defer d.callDone(c)
	return answer(c)
}

func (d *discovery) LookupTimed(node string, after <-chan struct{}) (string, error) {
	c := d.timedCallTo(node, after)
	defer d.callDone(c)
	return answer(c)
}

func (d *discovery) LookupQueued(node string) (string, error) {
	c := d.queuedCallTo(node)
	defer d.callDone(c)
	return answer(c)
}

func (d *discovery) LookupRetried(node string) (string, error) {
	c := d.retriedCallTo(node, 2)
	defer d.callDone(c)
	return answer(c)
}
