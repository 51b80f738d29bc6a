package baresend

import (
	"context"
	"sync"
	"sync/atomic"
)

// A send guarded by a shutdown flag or a state: the test and the send in
// one critical section of a lock, and everything that stops the receiver
// made only after a write the test stops, under a lock of that class.
// While the sender holds the lock the receiver has not stopped.

// connPool is the database/sql shape: Close sets closed under mu and then
// cancels the opener's context; requests check closed under mu, which
// their callers hold.
type connPool struct {
	mu     sync.Mutex
	closed bool
	opens  chan struct{}
	stop   func()
}

func NewConnPool() *connPool {
	ctx, cancel := context.WithCancel(context.Background())
	p := &connPool{opens: make(chan struct{}, 8), stop: cancel}
	go p.opener(ctx)
	return p
}

func (p *connPool) opener(ctx context.Context) {
	for {
		select {
		case <-p.opens:
		case <-ctx.Done():
			return
		}
	}
}

func (p *connPool) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.mu.Unlock()
	p.stop()
}

// Put and Get hold mu across the call: maybeOpen assumes it.
func (p *connPool) Put() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.maybeOpen()
}

func (p *connPool) Get() {
	p.mu.Lock()
	p.maybeOpen()
	p.mu.Unlock()
}

func (p *connPool) maybeOpen() {
	if p.closed {
		return
	}
	p.opens <- struct{}{} // checked under the callers' mu: quiet
}

// requestAfterUnlockAudit tests closed under mu but sends after it lets
// go: Close can set closed and stop the opener in between, unless the
// callers, out of sight, may not request once they closed the pool.
// Close sets closed before it stops the opener, so only requests that
// race Close past the test, more than the buffer holds, can block: the
// audit tier.
func (p *connPool) requestAfterUnlockAudit() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	p.opens <- struct{}{} // want `send on p.opens .* \[audit: the send runs only while closed is false, which is set before its receiver stops: only sends that pass that test just before it is set can block, and the buffer holds 8 of them\]`
}

// The same test of a state excuses nothing: a state guard is counted
// only when the lock is held across it and the send. What keeps the
// finding in the audit tier is the loop's stop: it stops only on the
// close request it takes from events, behind every value sent before it.
func (p *partition) seekAfterUnlockBad(mu *sync.Mutex) {
	mu.Lock()
	if st := p.getState(); st == partClosed || st == partClosing {
		mu.Unlock()
		return
	}
	mu.Unlock()
	req := &seekReq{done: make(chan struct{})}
	p.events <- req // want `send on p.events \(chan any, cap 10\) can block forever: its receiver \(\*partition\).loop can stop receiving.*\[audit: its receiver \(\*partition\)\.loop stops only once it takes a stop request from this channel`
	<-req.done
}

// racyPool's Halt sets closed without the lock the senders test it
// under, and stops the opener: the test does not order the two.
type racyPool struct {
	mu     sync.Mutex
	closed bool
	opens  chan struct{}
	stop   func()
}

func NewRacyPool() *racyPool {
	ctx, cancel := context.WithCancel(context.Background())
	p := &racyPool{opens: make(chan struct{}, 8), stop: cancel}
	go p.opener(ctx)
	return p
}

func (p *racyPool) opener(ctx context.Context) {
	for {
		select {
		case <-p.opens:
		case <-ctx.Done():
			return
		}
	}
}

func (p *racyPool) Halt() {
	p.closed = true
	p.stop()
}

func (p *racyPool) request() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.opens <- struct{}{} // want `send on p.opens \(chan struct\{\}, cap 8\) can block forever: its receiver \(\*racyPool\).opener can stop receiving`
}

// The partition shape: a state read and written atomically, an events
// loop that stops on a close request, a parent that calls the
// partition's methods under its own lock.
type partState int32

const (
	partInit partState = iota
	partReady
	partClosing
	partClosed
)

type partition struct {
	state   atomic.Int32
	events  chan any
	closeCh chan struct{}
}

type seekReq struct{ done chan struct{} }

type closeReq struct{ done chan struct{} }

func NewPartition() *partition {
	p := &partition{events: make(chan any, 10), closeCh: make(chan struct{})}
	p.setState(partInit)
	p.setState(partReady)
	go p.loop()
	return p
}

func (p *partition) getState() partState  { return partState(p.state.Load()) }
func (p *partition) setState(s partState) { p.state.Store(int32(s)) }

func (p *partition) loop() {
	for {
		select {
		case <-p.closeCh:
			return
		case ev := <-p.events:
			switch v := ev.(type) {
			case *seekReq:
				close(v.done)
			case *closeReq:
				p.internalClose(v)
				return
			}
		}
	}
}

func (p *partition) internalClose(req *closeReq) {
	defer close(req.done)
	p.setState(partClosed)
	close(p.closeCh)
}

// Close is exported and called through an interface here: its callers
// are out of sight, so the lock it is called under is not known. Its own
// send is the loop's only stop (selfstop.go): the audit tier.
func (p *partition) Close() {
	if p.getState() != partReady {
		return
	}
	req := &closeReq{done: make(chan struct{})}
	p.events <- req // want `send on p.events \(chan any, cap 10\) can block forever: its receiver \(\*partition\).loop can stop receiving.*\[audit: its receiver \(\*partition\)\.loop stops only on the value this send makes`
	<-req.done
}

type closer interface{ Close() }

type parent struct {
	sync.Mutex
	parts []*partition
}

func (c *parent) Close() {
	c.Lock()
	defer c.Unlock()
	for _, p := range c.parts {
		var cl closer = p
		cl.Close()
	}
}

// Seek calls seek under the parent's lock; the close request is sent by
// a Close whose callers are out of sight, so the pass cannot show it is
// sent only under that lock either: the audit tier.
func (c *parent) Seek() {
	c.Lock()
	defer c.Unlock()
	for _, p := range c.parts {
		p.seek()
	}
}

func (p *partition) seek() {
	if st := p.getState(); st == partClosed || st == partClosing {
		return
	}
	req := &seekReq{done: make(chan struct{})}
	p.events <- req // want `send on p.events .* \[audit: the send runs only while state is not partClosed or partClosing, under a lock, and its receiver is not shown to stop only after state is set under that lock\]`
	<-req.done
}

// SeekUnlocked tests the state with no lock held: the loop can stop
// between the test and the send, and the finding stays.
func (c *parent) SeekUnlocked() {
	go c.parts[0].seekBare()
}

func (p *partition) seekBare() {
	if st := p.getState(); st == partClosed || st == partClosing {
		return
	}
	req := &seekReq{done: make(chan struct{})}
	p.events <- req // want `send on p.events \(chan any, cap 10\) can block forever: its receiver \(\*partition\).loop can stop receiving`
	<-req.done
}

// lockedPart's close request is sent only under the owner's lock, after
// the state is set to closing there: a send that tests the state under
// the same lock runs before the loop can stop.
type lockedPart struct {
	state   atomic.Int32
	events  chan any
	closeCh chan struct{}
}

func NewLockedPart() *lockedPart {
	p := &lockedPart{events: make(chan any, 10), closeCh: make(chan struct{})}
	p.setState(partReady)
	go p.loop()
	return p
}

func (p *lockedPart) getState() partState  { return partState(p.state.Load()) }
func (p *lockedPart) setState(s partState) { p.state.Store(int32(s)) }

func (p *lockedPart) loop() {
	for {
		select {
		case <-p.closeCh:
			return
		case ev := <-p.events:
			switch v := ev.(type) {
			case *seekReq:
				close(v.done)
			case *closeReq:
				p.internalClose(v)
				return
			}
		}
	}
}

func (p *lockedPart) internalClose(req *closeReq) {
	defer close(req.done)
	p.setState(partClosed)
	close(p.closeCh)
}

type lockedOwner struct {
	mu   sync.Mutex
	part *lockedPart
}

func (o *lockedOwner) Close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.part.closeLocked()
}

func (o *lockedOwner) Seek() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.part.seek()
}

func (p *lockedPart) closeLocked() {
	if p.getState() != partReady {
		return
	}
	p.setState(partClosing)
	req := &closeReq{done: make(chan struct{})}
	p.events <- req // the request itself, after the write under o.mu: quiet
	<-req.done
}

func (p *lockedPart) seek() {
	if st := p.getState(); st == partClosed || st == partClosing {
		return
	}
	req := &seekReq{done: make(chan struct{})}
	p.events <- req // tested under o.mu, which close holds to set closing: quiet
	<-req.done
}

// lazyPool tests closed with no lock in sight, in an exported method
// whose callers are out of sight: they may hold the lock Close sets it
// under, and the pass leaves the order to the audit tier.
type lazyPool struct {
	closed bool
	opens  chan struct{}
	stop   func()
}

func NewLazyPool() *lazyPool {
	ctx, cancel := context.WithCancel(context.Background())
	p := &lazyPool{opens: make(chan struct{}, 8), stop: cancel}
	go p.opener(ctx)
	go p.requestBare()
	return p
}

func (p *lazyPool) opener(ctx context.Context) {
	for {
		select {
		case <-p.opens:
		case <-ctx.Done():
			return
		}
	}
}

func (p *lazyPool) Close() {
	p.closed = true
	p.stop()
}

func (p *lazyPool) Request() {
	if p.closed {
		return
	}
	p.opens <- struct{}{} // want `send on p.opens .* \[audit: the send runs only while closed is false, which is set before its receiver stops: only sends that pass that test just before it is set can block, and the buffer holds 8 of them\]`
}

// requestBare runs only on the goroutine NewLazyPool starts, which holds
// no lock: Close can set closed and stop the opener between the test and
// the send. Close sets closed before it stops the opener, so the send
// blocks only when eight more requests race Close past the test.
func (p *lazyPool) requestBare() {
	if p.closed {
		return
	}
	p.opens <- struct{}{} // want `send on p.opens \(chan struct\{\}, cap 8\) can block forever: its receiver \(\*lazyPool\).opener can stop receiving, .* \[audit: the send runs only while closed is false, which is set before its receiver stops: only sends that pass that test just before it is set can block, and the buffer holds 8 of them\]`
}

// handoffPool's opener takes each request unbuffered: one request racing
// Close past the test is enough to block for ever.
type handoffPool struct {
	closed bool
	opens  chan struct{}
	stop   func()
}

func NewHandoffPool() *handoffPool {
	ctx, cancel := context.WithCancel(context.Background())
	p := &handoffPool{opens: make(chan struct{}), stop: cancel}
	go p.opener(ctx)
	go p.requestBare()
	return p
}

func (p *handoffPool) opener(ctx context.Context) {
	for {
		select {
		case <-p.opens:
		case <-ctx.Done():
			return
		}
	}
}

func (p *handoffPool) Close() {
	p.closed = true
	p.stop()
}

func (p *handoffPool) requestBare() {
	if p.closed {
		return
	}
	p.opens <- struct{}{} // want `send on p.opens \(chan struct\{\}, unbuffered\) can block forever: its receiver \(\*handoffPool\).opener can stop receiving`
}

// failingPool's opener also leaves when an open fails, without setting
// closed: requests that pass the test then fill the buffer and block.
type failingPool struct {
	closed bool
	opens  chan struct{}
	stop   func()
	open   func() error
}

func NewFailingPool(open func() error) *failingPool {
	ctx, cancel := context.WithCancel(context.Background())
	p := &failingPool{opens: make(chan struct{}, 8), stop: cancel, open: open}
	go p.opener(ctx)
	return p
}

func (p *failingPool) Request() { go p.requestBare() }

func (p *failingPool) opener(ctx context.Context) {
	for {
		select {
		case <-p.opens:
			if p.open() != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

func (p *failingPool) Close() {
	p.closed = true
	p.stop()
}

func (p *failingPool) requestBare() {
	if p.closed {
		return
	}
	p.opens <- struct{}{} // want `send on p.opens \(chan struct\{\}, cap 8\) can block forever: its receiver \(\*failingPool\).opener can stop receiving`
}

// exposedPool's stop channel is exported: code out of sight may close it
// without the lock, so the pass cannot name every stop of the opener and
// leaves the flag to the audit tier.
type exposedPool struct {
	mu     sync.Mutex
	closed bool
	opens  chan struct{}
	Done   chan struct{}
}

func NewExposedPool() *exposedPool {
	p := &exposedPool{opens: make(chan struct{}, 8), Done: make(chan struct{})}
	go p.opener()
	return p
}

func (p *exposedPool) opener() {
	for {
		select {
		case <-p.opens:
		case <-p.Done:
			return
		}
	}
}

func (p *exposedPool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	close(p.Done)
}

func (p *exposedPool) request() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.opens <- struct{}{} // want `send on p.opens .* \[audit: the send runs only while closed is false, and its receiver is not shown to stop before closed is set\]`
}

// closedPool is exposedPool with its stop channel kept to itself: Close
// sets closed and closes it under the lock request tests closed under.
type closedPool struct {
	mu     sync.Mutex
	closed bool
	opens  chan struct{}
	done   chan struct{}
}

func NewClosedPool() *closedPool {
	p := &closedPool{opens: make(chan struct{}, 8), done: make(chan struct{})}
	go p.opener()
	return p
}

func (p *closedPool) opener() {
	for {
		select {
		case <-p.opens:
		case <-p.done:
			return
		}
	}
}

func (p *closedPool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	close(p.done)
}

func (p *closedPool) request() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.opens <- struct{}{}
}

// A forwarder passes values while it is busy or draining. The test of its
// state is two comparisons joined by ||: the send runs while the state
// is either, so Stop's write of fwdDraining, made before it closes
// quit, does not keep the loop alive for the send.
type forwarder struct {
	mu    sync.Mutex
	state int
	out   chan int
	quit  chan struct{}
}

const (
	fwdIdle = iota
	fwdBusy
	fwdDraining
)

func NewForwarder() *forwarder {
	r := &forwarder{out: make(chan int), quit: make(chan struct{})}
	go r.loop()
	return r
}

func (r *forwarder) loop() {
	for {
		select {
		case <-r.out:
		case <-r.quit:
			return
		}
	}
}

func (r *forwarder) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.state = fwdDraining
	close(r.quit)
}

func (r *forwarder) Push(v int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == fwdBusy || r.state == fwdDraining {
		r.out <- v // want `send on r.out \(chan int, unbuffered\) can block forever: its receiver \(\*forwarder\).loop can stop receiving`
	}
}
