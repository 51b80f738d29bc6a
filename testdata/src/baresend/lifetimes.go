package baresend

import (
	"context"
	"sync"
)

// A receiver that stops is a proof only when it is the channel's last: it
// runs once per channel, on a goroutine of its own or in the function that
// made the channel. A method that waits once per request can give up in one
// call and receive in the next.

// pump feeds one consumer goroutine, started once with the pump, which
// leaves when its context ends; from then on Publish fills the buffer and
// blocks.
type pump struct{ events chan string }

func newPump(ctx context.Context) *pump {
	p := &pump{events: make(chan string, 64)}
	go p.loop(ctx)
	return p
}

func (p *pump) loop(ctx context.Context) {
	for {
		select {
		case e := <-p.events:
			println(e)
		case <-ctx.Done():
			return
		}
	}
}

func (p *pump) PublishBad(e string) {
	p.events <- e // want `send on p.events \(chan string, cap 64\) can block forever: its receiver \(\*pump\).loop can stop receiving, and no liveness case`
}

// slotConn hands its one ready signal to whichever request waits for it;
// a request that gives up leaves the next one to receive.
type slotConn struct{ ready chan struct{} }

func (c *slotConn) reserve(ctx context.Context) bool {
	select {
	case <-c.ready:
		return true
	case <-ctx.Done():
		return false
	}
}

func (c *slotConn) releasePerRequestAudit() {
	c.ready <- struct{}{} // want `send on c.ready .* \[audit: its receiver \(\*slotConn\).reserve can stop waiting, but may run again for the same channel\]`
}

// workers are started one per job: one that stops leaves the others
// receiving.
type workers struct{ jobs chan int }

func (w *workers) start(ctx context.Context, n int) {
	for range n {
		go w.work(ctx)
	}
}

func (w *workers) work(ctx context.Context) {
	for {
		select {
		case j := <-w.jobs:
			println(j)
		case <-ctx.Done():
			return
		}
	}
}

func (w *workers) submitToPoolAudit(j int) {
	w.jobs <- j // want `send on w.jobs .* \[audit: its receiver \(\*workers\).work can stop waiting, but may run again for the same channel\]`
}

// rpcClient registers a reply slot per call and waits for it, giving up on
// the call's context. A slot with room for the one answer the call is owed
// never blocks its sender; an unbuffered one blocks the reader goroutine
// that answers after the call gave up.
type rpcClient struct {
	mu       sync.Mutex
	pending  map[int]chan string
	unbuffed map[int]chan string
}

func (c *rpcClient) call(ctx context.Context, id int) (string, error) {
	reply := make(chan string, 1)
	c.mu.Lock()
	c.pending[id] = reply
	c.mu.Unlock()
	select {
	case r := <-reply:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (c *rpcClient) answerSlotAudit(id int, r string) {
	c.mu.Lock()
	reply := c.pending[id]
	c.mu.Unlock()
	reply <- r // want `send on reply \(chan string, cap 1\) .* \[audit: its buffer \(cap 1\) is not shown to receive more values than it holds\]`
}

// A batch call waits for one answer per id on one channel sized to the
// batch; the audit label names the buffer by that size.
type batchClient struct {
	mu      sync.Mutex
	pending map[int]chan string
}

func (c *batchClient) callBatch(ctx context.Context, ids []int) ([]string, error) {
	reply := make(chan string, len(ids))
	c.mu.Lock()
	for _, id := range ids {
		c.pending[id] = reply
	}
	c.mu.Unlock()
	var out []string
	for range ids {
		select {
		case r := <-reply:
			out = append(out, r)
		case <-ctx.Done():
			return out, ctx.Err()
		}
	}
	return out, nil
}

func (c *batchClient) answerAudit(id int, r string) {
	c.mu.Lock()
	reply := c.pending[id]
	c.mu.Unlock()
	reply <- r // want `send on reply \(chan string, cap len\(ids\)\) .* \[audit: its buffer \(cap len\(ids\)\) is not shown to receive more values than it holds\]`
}

func (c *rpcClient) callUnbuffered(ctx context.Context, id int) (string, error) {
	reply := make(chan string)
	c.mu.Lock()
	c.unbuffed[id] = reply
	c.mu.Unlock()
	select {
	case r := <-reply:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (c *rpcClient) answerUnbufferedBad(id int, r string) {
	c.mu.Lock()
	reply := c.unbuffed[id]
	c.mu.Unlock()
	reply <- r // want `send on reply \(chan string, unbuffered\) can block forever: its receiver \(\*rpcClient\).callUnbuffered can stop receiving`
}

// opener is told to open connections while the pool is open. Close marks
// it closed under the lock and then stops the opener: a request that checks
// closed under the same lock cannot be sent after the opener is gone
// (guards.go has the rule's other cases).
type opener struct {
	mu     sync.Mutex
	closed bool
	open   chan struct{}
	stop   func()
}

func newOpener() *opener {
	ctx, cancel := context.WithCancel(context.Background())
	o := &opener{open: make(chan struct{}, 8), stop: cancel}
	go o.run(ctx)
	return o
}

func (o *opener) run(ctx context.Context) {
	for {
		select {
		case <-o.open:
		case <-ctx.Done():
			return
		}
	}
}

func (o *opener) Close() {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	o.stop()
}

func (o *opener) requestWhileOpenOK() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	o.open <- struct{}{}
}

// intake marks each request registered before it is queued: a flag set on
// the way in is no shutdown, and the send after it is still proven.
type intake struct {
	registered bool
	out        chan string
}

func newIntake(ctx context.Context) *intake {
	f := &intake{out: make(chan string, 4)}
	go f.drain(ctx)
	return f
}

func (f *intake) drain(ctx context.Context) {
	for {
		select {
		case s := <-f.out:
			println(s)
		case <-ctx.Done():
			return
		}
	}
}

func (f *intake) register() { f.registered = true }

func (f *intake) sendUnregisteredBad(s string) {
	if f.registered {
		return
	}
	f.out <- s // want `send on f.out \(chan string, cap 4\) can block forever: its receiver \(\*intake\).drain can stop receiving`
}

// fanHub registers each subscriber's channel; the subscriber reads it until
// its connection fails, and then nothing reads it. Every publish sends one
// more value to every registered channel, so its buffer fills.
type fanHub struct{ subs map[int]chan string }

func (h *fanHub) subscribe(id int, write func(string) error) {
	c := make(chan string, 8)
	h.subs[id] = c
	for m := range c {
		if write(m) != nil {
			return
		}
	}
}

func (h *fanHub) publishBad(m string) {
	for _, c := range h.subs {
		c <- m // want `send on c \(chan string, cap 8\) can block forever: its receiver \(\*fanHub\).subscribe can stop receiving, and no liveness case .*; in this loop over receivers one slow receiver stalls every later one$`
	}
}

// steadyHub's subscribers read until their channel is closed: a slow one
// slows the publisher, and none leaves it blocked for good. The channels
// are registered in a map the pass does not follow to its end, so the send
// stays in the audit tier rather than quiet.
type steadyHub struct{ subs map[int]chan string }

func (h *steadyHub) subscribe(id int, write func(string)) {
	c := make(chan string, 8)
	h.subs[id] = c
	for m := range c {
		write(m)
	}
}

func (h *steadyHub) publishOK(m string) {
	for _, c := range h.subs {
		c <- m // want `send on c .*\[audit: its receivers are visible, but none is seen to stop while senders remain\]`
	}
}

// submitter is made by its constructor and started by its Start method,
// which the code that makes it calls right after: its one consumer is
// started with its channel.
type submitter struct{ requests chan string }

func newSubmitter() *submitter { return &submitter{requests: make(chan string, 16)} }

func (s *submitter) Start(ctx context.Context) { go s.consume(ctx) }

func (s *submitter) consume(ctx context.Context) {
	for {
		select {
		case r := <-s.requests:
			println(r)
		case <-ctx.Done():
			return
		}
	}
}

func (s *submitter) SubmitBad(r string) {
	s.requests <- r // want `send on s.requests \(chan string, cap 16\) can block forever: its receiver \(\*submitter\).consume can stop receiving`
}

func runSubmitter(ctx context.Context) *submitter {
	s := newSubmitter()
	s.Start(ctx)
	return s
}

// persistent's reader goroutine waits for each request's write in turn,
// giving up on one when the connection closes: the next response waits
// again on the same channel.
type persistent struct {
	writeErr chan error
	closed   chan struct{}
}

func newPersistent() *persistent {
	p := &persistent{writeErr: make(chan error, 1), closed: make(chan struct{})}
	go p.readLoop()
	return p
}

func (p *persistent) readLoop() {
	for range 3 {
		if !p.wroteRequest() {
			return
		}
	}
}

func (p *persistent) wroteRequest() bool {
	select {
	case err := <-p.writeErr:
		return err == nil
	case <-p.closed:
		return false
	}
}

func (p *persistent) writeLoopAudit(errs []error) {
	for _, err := range errs {
		p.writeErr <- err // want `send on p.writeErr .*\[audit: its receiver \(\*persistent\).wroteRequest can stop waiting, but may run again for the same channel\]`
	}
}

// stage forwards messages until the one its sender sends last: a receiver
// that stops on a value it was sent (m == "end") follows the protocol, and
// is not a receiver that goes away.
type stage struct{ out chan string }

func newStage(write func(string)) *stage {
	s := &stage{out: make(chan string)}
	go s.forward(write)
	return s
}

func (s *stage) forward(write func(string)) {
	for m := range s.out {
		write(m)
		if m == "end" {
			return
		}
	}
}

func (s *stage) emitUntilEndOK(m string) {
	s.out <- m // ok: the receiver stops only on the sender's last message
}

// consumers buffers deliveries for each registered consumer on a goroutine
// of its own, which returns when the consumers are closed. close closes
// the stop channel and deletes every registration under the lock the
// sender holds to look one up: once a buffer goroutine has gone, its
// channel can no longer be found.
type consumers struct {
	mu     sync.Mutex
	closed chan struct{}
	chans  map[string]chan string
}

func (c *consumers) add(tag string, out chan string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	in := make(chan string)
	c.chans[tag] = in
	go c.buffer(in, out)
}

func (c *consumers) buffer(in, out chan string) {
	for d := range in {
		select {
		case <-c.closed:
			return
		case out <- d:
		}
	}
}

func (c *consumers) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	close(c.closed)
	for tag := range c.chans {
		delete(c.chans, tag)
	}
}

func (c *consumers) deliverWhileRegisteredAudit(tag, d string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if in, ok := c.chans[tag]; ok {
		in <- d // want `send on in .*\[audit: its receiver stops only where chans's entries are deleted, and the send looks its channel up there\]`
	}
}

// channelRPC's callers wait for their reply one request at a time and give
// up when the channel shuts down, which closes c.errors: from then on every
// call gives up at once, and the reader's next reply blocks it forever.
type channelRPC struct {
	rpc    chan string
	errors chan error
}

func (c *channelRPC) call() (string, error) {
	select {
	case r := <-c.rpc:
		return r, nil
	case err := <-c.errors:
		return "", err
	}
}

func (c *channelRPC) shutdown() { close(c.errors) }

func (c *channelRPC) dispatchBad(r string) {
	c.rpc <- r // want `send on c.rpc \(chan string\) can block forever: its receiver \(\*channelRPC\).call can stop receiving`
}

// connectionRPC's caller asks, then waits for the reply with a plain
// receive until the reader, the one sender, closes c.rpc on its way out.
// Its only way out without receiving is a request that failed to go out,
// before it asks, and no reply is owed to that one. (Once call also gives
// up on c.errors, as channelRPC's does, the reader's send can block.)
type connectionRPC struct {
	rpc    chan string
	errors chan error
	write  func(string) error
}

func (c *connectionRPC) call(req string) (string, error) {
	if err := c.write(req); err != nil {
		return "", err
	}
	r, ok := <-c.rpc
	if !ok {
		return "", <-c.errors
	}
	return r, nil
}

func (c *connectionRPC) reader(frames <-chan string) {
	defer close(c.rpc)
	for f := range frames {
		c.rpc <- f // ok: its receiver waits until the channel is closed, and closing it is the reader's
	}
}

// transport asks for a key exchange through a one-slot request channel
// that its kex loop serves; the constructor queues the first, mandatory
// exchange once its thresholds are set.
type transport struct {
	requestKex chan struct{}
	readLeft   int64
	writeLeft  int64
	rekeyBytes int64
}

func (t *transport) resetThresholds() {
	t.readLeft = t.rekeyBytes
	t.resetWrite()
}

func (t *transport) resetWrite() { t.writeLeft = t.rekeyBytes }

func (t *transport) kexLoop(ctx context.Context) {
	for {
		select {
		case <-t.requestKex:
			t.resetThresholds()
		case <-ctx.Done():
			return
		}
	}
}

func newTransport(ctx context.Context, rekey int64) *transport {
	t := &transport{requestKex: make(chan struct{}, 1), rekeyBytes: rekey}
	t.resetThresholds()
	t.requestKex <- struct{}{} // ok: the slot is empty; resetThresholds never touches the channel
	go t.kexLoop(ctx)
	return t
}

func (t *transport) requestFirst() {
	t.requestKex <- struct{}{} // want `send on t.requestKex \(chan struct\{\}, cap 1\) can block forever: no liveness case .* \[audit: its receiver \(\*transport\).kexLoop can stop waiting, but may run again for the same channel\]`
}

// newEagerTransport hands the new transport to a helper that itself asks
// for an exchange: the constructor's own request finds the slot taken.
func newEagerTransport(ctx context.Context) *transport {
	t := &transport{requestKex: make(chan struct{}, 1)}
	t.requestFirst()
	t.requestKex <- struct{}{} // want `send on t.requestKex \(chan struct\{\}, cap 1\) can block forever: no liveness case .* \[audit: its receiver \(\*transport\).kexLoop can stop waiting, but may run again for the same channel\]`
	go t.kexLoop(ctx)
	return t
}

// dialWorker keeps the requests it cannot answer yet in a set. When a dial
// completes, it answers every pending request that wanted that address
// and deletes it on every way on, so a request is answered once, whichever
// completion comes first: the loop is not a fan-out that sends one more
// value to every entry each time it runs. Each request brings its own
// one-slot reply, which its requester stops waiting on when its context
// ends: whether more values than the slot holds reach one reply is not
// shown either way.
type dialRequest struct {
	addr  string
	reply chan string
}

type pendingDial struct{ req dialRequest }

type dialWorker struct {
	requests chan dialRequest
	pending  map[*pendingDial]struct{}
}

func (w *dialWorker) dial(ctx context.Context, addr string) (string, error) {
	reply := make(chan string, 1)
	w.requests <- dialRequest{addr: addr, reply: reply}
	select {
	case conn := <-reply:
		return conn, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (w *dialWorker) run(completed chan string, failed chan string) {
	for {
		select {
		case req := <-w.requests:
			w.pending[&pendingDial{req: req}] = struct{}{}
		case addr := <-completed:
			w.answerAudit(addr)
		case addr := <-failed:
			w.failAudit(addr, len(w.pending) > 1)
		case addr := <-completed:
			w.progressBad(addr)
		}
	}
}

func (w *dialWorker) answerAudit(addr string) {
	for pr := range w.pending {
		if pr.req.addr == addr {
			pr.req.reply <- addr // want `send on pr\.req\.reply \(chan string, cap 1\) .* \[audit: its buffer \(cap 1\) is not shown to receive more values than it holds\]`
			delete(w.pending, pr)
		}
	}
}

func (w *dialWorker) failAudit(addr string, retry bool) {
	for pr := range w.pending {
		if pr.req.addr != addr {
			continue
		}
		if retry {
			pr.req.reply <- "retry " + addr // want `send on pr\.req\.reply .* \[audit: its buffer \(cap 1\) is not shown to receive more values than it holds\]`
		} else {
			pr.req.reply <- "failed " + addr // want `send on pr\.req\.reply .* \[audit: its buffer \(cap 1\) is not shown to receive more values than it holds\]`
		}
		delete(w.pending, pr)
	}
}

// progressBad reports progress to every pending request and keeps them
// all: each completion sends one more value into every slot, and the
// second fills a slot whose requester has gone.
func (w *dialWorker) progressBad(addr string) {
	for pr := range w.pending {
		pr.req.reply <- "progress " + addr // want `send on pr\.req\.reply \(chan string, cap 1\) can block forever: its receiver \(\*dialWorker\)\.dial can stop receiving, .*; in this loop over receivers one slow receiver stalls every later one$`
	}
}
