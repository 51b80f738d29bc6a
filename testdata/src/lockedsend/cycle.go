package lockedsend

import (
	"context"
	"sync"
)

// shard batches writes; its loop drains batch and flushes under mu.
type shard struct {
	mu    sync.Mutex
	batch chan int
	rows  []int
}

// flush takes mu for every row it takes from batch.
func (s *shard) flush(v int) {
	s.mu.Lock()
	s.rows = append(s.rows, v)
	s.mu.Unlock()
}

func (s *shard) loop() {
	for v := range s.batch {
		s.flush(v)
	}
}

// The loop that would drain batch needs s.mu first: once the buffer is
// full, both wait forever.
func (s *shard) addCycleBad(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batch <- v // want `send on s\.batch can block while s\.mu is held: its receiver \(\*shard\)\.loop takes s\.mu too, so once the channel is full neither can go on$`
}

// pipe's reader takes no lock: a sender under mu waits for its next
// receive, never for the lock it holds. Backpressure, not a stall.
type pipe struct {
	mu   sync.Mutex
	data chan int
	read int
}

func (p *pipe) reader() {
	for v := range p.data {
		p.read += v
	}
}

func (p *pipe) writeNoCycleAudit(v int) {
	p.mu.Lock()
	p.data <- v // want `send on p\.data can block while p\.mu is held: every goroutine that needs p\.mu waits for the channel's receiver \[audit: no receiver of it is seen to need the lock\]`
	p.mu.Unlock()
}

// table's reader takes table.mu only to read, as do its senders: readers
// do not exclude each other.
type table struct {
	mu      sync.RWMutex
	updates chan int
	n       int
}

func (t *table) size() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.n
}

func (t *table) watch() {
	for range t.updates {
		_ = t.size()
	}
}

func (t *table) publishReadersAudit(v int) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	t.updates <- v // want `send on t\.updates can block while t\.mu is held.*\[audit: no receiver of it is seen to need the lock\]`
}

// pool's worker takes pool.reg, which pool.sweep holds while it takes
// pool.mu: the worker waits for sweep, which waits for the sender.
type pool struct {
	mu   sync.Mutex
	reg  sync.Mutex
	jobs chan int
	live map[int]bool
}

func (p *pool) register(v int) {
	p.reg.Lock()
	p.live[v] = true
	p.reg.Unlock()
}

func (p *pool) worker() {
	for v := range p.jobs {
		p.register(v)
	}
}

func (p *pool) sweep() {
	p.reg.Lock()
	defer p.reg.Unlock()
	p.mu.Lock()
	clear(p.live)
	p.mu.Unlock()
}

func (p *pool) submitThroughOrderBad(v int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.jobs <- v // want `send on p\.jobs can block while p\.mu is held: its receiver \(\*pool\)\.worker takes p\.reg, which \(\*pool\)\.sweep holds while it takes p\.mu, so once the channel is full none of them can go on`
}

// The loop locks only rows it made itself, which nobody else can want
// before they escape: a publisher holding another row's mu does not wait
// for it.
type row struct {
	mu sync.Mutex
	v  int
}

type builder struct{ reqs chan int }

func (b *builder) loop() {
	for v := range b.reqs {
		r := &row{v: v}
		r.mu.Lock()
		r.v++
		r.mu.Unlock()
	}
}

func (r *row) publishFreshLockAudit(b *builder) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b.reqs <- r.v // want `send on b\.reqs can block while r\.mu is held.*\[audit: no receiver of it is seen to need the lock\]`
}

// subscribers take r.mu to register, before they receive: by
// the time a sender under r.mu can fill a subscriber's channel, the
// subscriber has let go of the lock. No cycle.
type subscribers struct {
	mu   sync.Mutex
	subs map[int]chan int
}

func (r *subscribers) subscribe(id int) {
	c := make(chan int, 4)
	r.mu.Lock()
	r.subs[id] = c
	r.mu.Unlock()
	for v := range c {
		println(v)
	}
}

func (r *subscribers) publishRegisteredFirstAudit(v int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.subs {
		c <- v // want `send on c can block while r\.mu is held.*\[audit: no receiver of it is seen to need the lock\]`
	}
}

// opener is told to open a connection for each waiting request. Its loop
// takes mu after each receive, a cycle in structure, but the queue holds
// a million requests: it closes only if the senders run that far ahead.
// Only the package's tests shrink the queue.
type opener struct {
	mu    sync.Mutex
	reqs  chan struct{}
	count int
}

var openerQueueSize = 1000000

func newOpener() *opener {
	o := &opener{reqs: make(chan struct{}, openerQueueSize)}
	go o.loop()
	return o
}

func (o *opener) loop() {
	for range o.reqs {
		o.mu.Lock()
		o.count++
		o.mu.Unlock()
	}
}

func (o *opener) requestVastAudit() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.reqs <- struct{}{} // want `send on o\.reqs can block while o\.mu is held: its receiver \(\*opener\)\.loop takes o\.mu too, so once the channel is full neither can go on \[audit: its buffer holds 1000000 values: the cycle closes only if the senders run that far ahead of the receiver\]$`
}

// A batcher's queue size is a setting the program may lower: the buffer
// is not settled, and the cycle stands.
type batcher struct {
	mu    sync.Mutex
	items chan int
	n     int
}

var batchQueueSize = 1000000

// SetBatchQueueSize lets a program trade memory for stalls.
func SetBatchQueueSize(n int) { batchQueueSize = n }

func newBatcher() *batcher {
	b := &batcher{items: make(chan int, batchQueueSize)}
	go b.loop()
	return b
}

func (b *batcher) loop() {
	for v := range b.items {
		b.mu.Lock()
		b.n += v
		b.mu.Unlock()
	}
}

func (b *batcher) addSettableBad(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.items <- v // want `send on b\.items can block while b\.mu is held: its receiver \(\*batcher\)\.loop takes b\.mu too, so once the channel is full neither can go on$`
}

// A waiter list: each Get makes its own one-slot channel, registers it
// under q.mu and receives from it once. What Get locks after that one
// receive cannot hold up a send on that channel, which nobody receives
// from again.
type waitQueue struct {
	mu      sync.Mutex
	closeMu sync.Mutex
	closed  bool
	waiters []*waiter
}

type waiter struct{ ready chan bool }

func newWaiter() *waiter { return &waiter{ready: make(chan bool, 1)} }

func (q *waitQueue) isClosed() bool {
	q.closeMu.Lock()
	defer q.closeMu.Unlock()
	return q.closed
}

func (q *waitQueue) Get() bool {
	w := newWaiter()
	q.mu.Lock()
	q.waiters = append(q.waiters, w)
	q.mu.Unlock()
	<-w.ready
	return !q.isClosed()
}

func (q *waitQueue) closeWaitersOnceAudit() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closeMu.Lock()
	defer q.closeMu.Unlock()
	q.closed = true
	for _, w := range q.waiters {
		w.ready <- true // want `send on w\.ready can block while q\.mu and q\.closeMu are held.*\[audit: no receiver of it is seen to need the lock\]`
	}
	q.waiters = nil
}

// A hand-off whose taker receives one value per call, then locks; its
// calls share the channel, and the loop that calls it needs h.mu before
// its next receive: a cycle.
type handoff struct {
	mu    sync.Mutex
	next  chan int
	taken int
}

func newHandoff() *handoff {
	h := &handoff{next: make(chan int, 8)}
	go h.drain()
	return h
}

func (h *handoff) take() int {
	v := <-h.next
	h.mu.Lock()
	h.taken++
	h.mu.Unlock()
	return v
}

func (h *handoff) drain() {
	for {
		h.take()
	}
}

func (h *handoff) giveCycleBad(v int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next <- v // want `send on h\.next can block while h\.mu is held: its receiver \(\*handoff\)\.take takes h\.mu too, so once the channel is full neither can go on$`
}

// agentPipeline queues a reply slot per request, in wire order, under
// writeMu; its reader answers them and, when the connection fails, shuts
// down: it wakes blocked writers by closing exitCh before it waits for
// writeMu.
type agentPipeline struct {
	writeMu sync.Mutex
	pending chan chan []byte
	exitCh  chan struct{}
	read    func() ([]byte, error)
}

func (p *agentPipeline) readLoop() {
	for {
		buf, err := p.read()
		if err != nil {
			break
		}
		reply := <-p.pending
		reply <- buf
	}
	p.shutdown()
}

func (p *agentPipeline) shutdown() {
	close(p.exitCh)
	p.writeMu.Lock()
	close(p.pending)
	p.writeMu.Unlock()
}

func (p *agentPipeline) callAudit(reply chan []byte) bool {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	select {
	case p.pending <- reply: // want `send on p\.pending in a select without default can block while p\.writeMu is held: every goroutine that needs p\.writeMu waits for the channel's receiver \[audit: its receiver takes the lock only once a case this select waits on can fire\]`
		return true
	case <-p.exitCh: // the reader's shutdown closes it before it takes writeMu
		return false
	}
}

// lateWakePipeline's reader takes writeMu before it closes exitCh: a
// writer blocked on a full queue never sees the wake-up.
type lateWakePipeline struct {
	writeMu sync.Mutex
	pending chan chan []byte
	exitCh  chan struct{}
	read    func() ([]byte, error)
}

func (p *lateWakePipeline) readLoop() {
	for {
		buf, err := p.read()
		if err != nil {
			break
		}
		reply := <-p.pending
		reply <- buf
	}
	p.writeMu.Lock()
	close(p.exitCh)
	p.writeMu.Unlock()
}

func (p *lateWakePipeline) callCycleBad(reply chan []byte) bool {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	select {
	case p.pending <- reply: // want `send on p\.pending in a select without default can block while p\.writeMu is held: its receiver \(\*lateWakePipeline\)\.readLoop takes p\.writeMu too`
		return true
	case <-p.exitCh:
		return false
	}
}

// addrSubs streams address updates to subscribers. The publisher holds
// the manager's read lock while it hands an update to each subscriber,
// and gives up on one whose context is done; a subscriber unsubscribes,
// under the write lock, only once that same context is done.
type addrSubs struct {
	mu   sync.RWMutex
	subs map[string][]*addrSub
}

type addrSub struct {
	pubch chan string
	ctx   context.Context
}

func (s *addrSub) pub(a string) {
	select {
	case s.pubch <- a:
	case <-s.ctx.Done():
	}
}

func (m *addrSubs) BroadcastAudit(peer, a string) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, sub := range m.subs[peer] {
		sub.pub(a) // want `call to sub\.pub can block while m\.mu is held: \(\*lockedsend\.addrSub\)\.pub → send on s\.pubch in a select without default; every goroutine that needs m\.mu for writing, and every reader after it, waits for the channel's receiver \[audit: its receiver takes the lock only once a case this select waits on can fire\]`
	}
}

func (m *addrSubs) remove(peer string, sub *addrSub) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_ = sub
	delete(m.subs, peer)
}

func (m *addrSubs) Stream(ctx context.Context, peer string) <-chan string {
	sub := &addrSub{pubch: make(chan string), ctx: ctx}
	out := make(chan string, 16)
	m.mu.Lock()
	m.subs[peer] = append(m.subs[peer], sub)
	m.mu.Unlock()
	go func() {
		defer close(out)
		for {
			select {
			case a := <-sub.pubch:
				select {
				case out <- a:
				default:
				}
			case <-ctx.Done():
				m.remove(peer, sub)
				return
			}
		}
	}()
	return out
}

// staleSubs' subscriber unsubscribes when its own stop channel fires, a
// signal the publisher does not wait on: blocked on a full handoff under
// the read lock, it never lets the unsubscribe take the write lock.
type staleSubs struct {
	mu   sync.RWMutex
	subs []*staleSub
}

type staleSub struct {
	pubch chan string
	ctx   context.Context
	stop  chan struct{}
}

func (s *staleSub) pub(a string) {
	select {
	case s.pubch <- a:
	case <-s.ctx.Done():
	}
}

func (m *staleSubs) BroadcastCycleBad(a string) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, sub := range m.subs {
		sub.pub(a) // want `call to sub\.pub can block while m\.mu is held: \(\*lockedsend\.staleSub\)\.pub → send on s\.pubch in a select without default; its receiver the function literal in \(\*staleSubs\)\.Stream takes m\.mu too`
	}
}

func (m *staleSubs) Stream(ctx context.Context) <-chan string {
	sub := &staleSub{pubch: make(chan string), ctx: ctx, stop: make(chan struct{})}
	out := make(chan string, 16)
	m.mu.Lock()
	m.subs = append(m.subs, sub)
	m.mu.Unlock()
	go func() {
		for {
			select {
			case a := <-sub.pubch:
				out <- a
			case <-sub.stop:
				m.mu.Lock()
				m.subs = nil
				m.mu.Unlock()
				return
			}
		}
	}()
	return out
}
