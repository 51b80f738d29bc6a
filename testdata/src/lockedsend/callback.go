package lockedsend

import "lockedsend/peers"

// A block pool reports misbehaving peers to its reactor's loop, which
// stops them through the switch. The switch calls every reactor back, and
// this reactor's RemovePeer takes the pool's lock: a pool that reports
// while it holds that lock waits for a loop that waits for the lock.
type blockPool struct {
	mtx     peers.Mutex
	errorsC chan string
	byPeer  map[string]int
}

type blockReactor struct {
	sw   peers.Switcher
	pool *blockPool
}

func newBlockReactor(sw peers.Switcher) *blockReactor {
	r := &blockReactor{sw: sw, pool: &blockPool{errorsC: make(chan string, 16), byPeer: map[string]int{}}}
	go r.loop()
	return r
}

func (r *blockReactor) loop() {
	for id := range r.pool.errorsC {
		r.sw.StopPeer(id)
	}
}

// RemovePeer implements peers.Reactor.
func (r *blockReactor) RemovePeer(id string) {
	r.pool.mtx.Lock()
	delete(r.pool.byPeer, id)
	r.pool.mtx.Unlock()
}

func (p *blockPool) addBlockCallbackBad(id string, height int) {
	p.mtx.Lock()
	defer p.mtx.Unlock()
	if height < 0 {
		p.errorsC <- id // want `send on p\.errorsC can block while p\.mtx is held: its receiver \(\*blockReactor\)\.loop takes p\.mtx too, so once the channel is full neither can go on$`
		return
	}
	p.byPeer[id] = height
}

// A status pool's loop asks the switch whether a peer is still there: the
// switch takes only its own lock, another peers.Mutex in another struct,
// and calls nobody back. The loop never needs the pool's lock.
type statusPool struct {
	mtx     peers.Mutex
	reports chan string
	seen    map[string]bool
}

func (p *statusPool) loop(sw *peers.Switch) {
	for id := range p.reports {
		_ = sw.Has(id)
	}
}

func (p *statusPool) reportNoCallbackAudit(id string) {
	p.mtx.Lock()
	defer p.mtx.Unlock()
	p.seen[id] = true
	p.reports <- id // want `send on p\.reports can block while p\.mtx is held: every goroutine that needs p\.mtx waits for the channel's receiver \[audit: no receiver of it is seen to need the lock\]$`
}

// dataFrame embeds the switch's Base, and so implements its unexported
// frame interface, whose method the switch calls back on Recycle: a
// method of another package, which this package's locks do not reach.
// (An exported method: its Acquires fact is computed, callbacks and all.)
type dataFrame struct {
	peers.Base
	payload []byte
}

func (p *statusPool) RecycleNoCallbackAudit(f *dataFrame, id string) {
	p.mtx.Lock()
	defer p.mtx.Unlock()
	peers.Recycle(f)
	p.reports <- id // want `send on p\.reports can block while p\.mtx is held: every goroutine that needs p\.mtx waits for the channel's receiver \[audit: no receiver of it is seen to need the lock\]$`
}
