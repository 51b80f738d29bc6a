package baresend

import "sync"

// A topic broker hands each subscriber a buffered channel of its own and
// keeps it in a map until the subscriber leaves. Publish walks the map
// with a bare send: a subscriber that stops reading without leaving
// (a handler that returned on an error, a client whose connection
// dropped) fills its buffer, and Publish then waits for good, holding the
// broker's lock, so no one can subscribe, leave or publish again.

type topicBroker struct {
	mu   sync.Mutex
	next int
	subs map[int]chan string
}

// Subscribe returns the channel and an id to leave with.
func (b *topicBroker) Subscribe() (int, <-chan string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	ch := make(chan string, 8)
	b.subs[b.next] = ch
	return b.next, ch
}

func (b *topicBroker) Leave(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, id)
}

func (b *topicBroker) Publish(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		ch <- msg // want `send on ch \(chan string, cap 8\) can block forever: its receiver is the caller that \(\*topicBroker\)\.Subscribe hands it to, who can stop reading`
	}
}

// A broker whose subscriptions the package drains itself: the channel is
// kept, not handed out, and a pump of the package's reads it. Who reads
// is in sight, and it is not seen to stop: no proof, the audit tier's.

type pumpedBroker struct {
	mu   sync.Mutex
	subs map[int]chan string
	out  func(string)
}

func (b *pumpedBroker) Subscribe(id int) {
	ch := make(chan string, 8)
	b.mu.Lock()
	b.subs[id] = ch
	b.mu.Unlock()
	go func() {
		for m := range ch {
			b.out(m)
		}
	}()
}

func (b *pumpedBroker) Publish(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		ch <- msg // want `\[audit: its receivers are visible, but none is seen to stop while senders remain\]`
	}
}

// A subscription made by an unexported function is handed to the
// package's own code, which the pass follows instead; only the exported
// door to callers it cannot see proves that someone can stop reading.

type localBroker struct {
	subs []chan string
}

func (b *localBroker) subscribe() <-chan string {
	ch := make(chan string, 8)
	b.subs = append(b.subs, ch)
	return ch
}

func (b *localBroker) publish(msg string) {
	for _, ch := range b.subs {
		ch <- msg // want `\[audit: no receiver of it is visible in this package\]`
	}
}

// A broker that hands each new channel to a handler it starts: the
// channel does not go back to the caller, and what the handler does with
// it is out of sight, so the send stays in the audit tier.

type streamHandler interface{ Serve(<-chan string) }

type handlerBroker struct {
	subs []chan string
}

func (b *handlerBroker) Attach(h streamHandler) {
	ch := make(chan string, 8)
	b.subs = append(b.subs, ch)
	go h.Serve(ch)
}

func (b *handlerBroker) Publish(msg string) {
	for _, ch := range b.subs {
		ch <- msg // want `\[audit: no receiver of it is visible in this package\]`
	}
}

// A call group lets callers share one run of a slow lookup: each caller
// gets a one-slot channel of its own, kept in the call's list of waiters,
// and the run answers every waiter once, when it completes. A caller that
// stopped reading leaves its answer in its slot.

type lookupResult struct {
	addr string
	err  error
}

type lookupCall struct {
	waiters []chan<- lookupResult
	res     lookupResult
}

type lookupGroup struct {
	mu    sync.Mutex
	calls map[string]*lookupCall
}

func (g *lookupGroup) Lookup(host string, resolve func(string) lookupResult) <-chan lookupResult {
	ch := make(chan lookupResult, 1)
	g.mu.Lock()
	if c, ok := g.calls[host]; ok {
		c.waiters = append(c.waiters, ch)
		g.mu.Unlock()
		return ch
	}
	c := &lookupCall{waiters: []chan<- lookupResult{ch}}
	g.calls[host] = c
	g.mu.Unlock()
	go g.run(c, host, resolve)
	return ch
}

func (g *lookupGroup) run(c *lookupCall, host string, resolve func(string) lookupResult) {
	c.res = resolve(host)
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.calls, host)
	for _, ch := range c.waiters {
		ch <- c.res // want `\[audit: no receiver of it is visible in this package\]`
	}
}

// The same group answering from a deferred function, so that a panicking
// lookup still answers its waiters.

type safeCall struct {
	waiters []chan<- lookupResult
	res     lookupResult
}

type safeGroup struct {
	mu    sync.Mutex
	calls map[string]*safeCall
}

func (g *safeGroup) Lookup(host string, resolve func(string) lookupResult) <-chan lookupResult {
	ch := make(chan lookupResult, 1)
	g.mu.Lock()
	if c, ok := g.calls[host]; ok {
		c.waiters = append(c.waiters, ch)
		g.mu.Unlock()
		return ch
	}
	c := &safeCall{waiters: []chan<- lookupResult{ch}}
	g.calls[host] = c
	g.mu.Unlock()
	go g.run(c, host, resolve)
	return ch
}

func (g *safeGroup) run(c *safeCall, host string, resolve func(string) lookupResult) {
	defer func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		delete(g.calls, host)
		for _, ch := range c.waiters {
			ch <- c.res // want `\[audit: no receiver of it is visible in this package\]`
		}
	}()
	c.res = resolve(host)
}

// A group that retries a failed lookup walks the same waiters again: a
// waiter that stopped reading after the first answer blocks the second.

type retriedCall struct {
	waiters []chan<- lookupResult
	res     lookupResult
}

type retryGroup struct {
	mu    sync.Mutex
	calls map[string]*retriedCall
}

func (g *retryGroup) Lookup(host string, resolve func(string) lookupResult) <-chan lookupResult {
	ch := make(chan lookupResult, 1)
	g.mu.Lock()
	if c, ok := g.calls[host]; ok {
		c.waiters = append(c.waiters, ch)
		g.mu.Unlock()
		return ch
	}
	c := &retriedCall{waiters: []chan<- lookupResult{ch}}
	g.calls[host] = c
	g.mu.Unlock()
	go func() {
		g.answer(c, resolve(host))
		if c.res.err != nil {
			g.answer(c, resolve(host))
		}
	}()
	return ch
}

func (g *retryGroup) answer(c *retriedCall, res lookupResult) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c.res = res
	for _, ch := range c.waiters {
		ch <- res // want `send on ch \(chan<- lookupResult, cap 1\) can block forever: its receiver is the caller that \(\*retryGroup\)\.Lookup hands it to, who can stop reading`
	}
}

// Answered once, but without a slot: a waiter that stopped reading blocks
// the run, under the group's lock.

type bareCall struct {
	waiters []chan lookupResult
}

type bareGroup struct {
	mu    sync.Mutex
	calls map[string]*bareCall
}

func (g *bareGroup) Lookup(host string, resolve func(string) lookupResult) <-chan lookupResult {
	ch := make(chan lookupResult)
	g.mu.Lock()
	if c, ok := g.calls[host]; ok {
		c.waiters = append(c.waiters, ch)
		g.mu.Unlock()
		return ch
	}
	c := &bareCall{waiters: []chan lookupResult{ch}}
	g.calls[host] = c
	g.mu.Unlock()
	go g.run(c, host, resolve)
	return ch
}

func (g *bareGroup) run(c *bareCall, host string, resolve func(string) lookupResult) {
	res := resolve(host)
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.calls, host)
	for _, ch := range c.waiters {
		ch <- res // want `send on ch \(chan lookupResult, unbuffered\) can block forever: its receiver is the caller that \(\*bareGroup\)\.Lookup hands it to, who can stop reading`
	}
}

// The call group of any result type: the run is a method of a generic
// type, called through its instances.

type flightCall[V any] struct {
	waiters []chan<- V
	val     V
}

type flightGroup[V any] struct {
	mu    sync.Mutex
	calls map[string]*flightCall[V]
}

func (g *flightGroup[V]) DoChan(key string, fn func() V) <-chan V {
	ch := make(chan V, 1)
	g.mu.Lock()
	if c, ok := g.calls[key]; ok {
		c.waiters = append(c.waiters, ch)
		g.mu.Unlock()
		return ch
	}
	c := &flightCall[V]{waiters: []chan<- V{ch}}
	g.calls[key] = c
	g.mu.Unlock()
	go g.run(c, key, fn)
	return ch
}

func (g *flightGroup[V]) run(c *flightCall[V], key string, fn func() V) {
	c.val = fn()
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.calls, key)
	for _, ch := range c.waiters {
		ch <- c.val // want `\[audit: no receiver of it is visible in this package\]`
	}
}

// The same run, also handed out as a method value: its calls are out of
// sight, and the proof with them.

type valueGroup[V any] struct {
	mu    sync.Mutex
	calls map[string]*valueCall[V]
	runs  []func(*valueCall[V], string, func() V)
}

type valueCall[V any] struct {
	waiters []chan<- V
}

func (g *valueGroup[V]) DoChan(key string, fn func() V) <-chan V {
	ch := make(chan V, 1)
	g.mu.Lock()
	if c, ok := g.calls[key]; ok {
		c.waiters = append(c.waiters, ch)
		g.mu.Unlock()
		return ch
	}
	c := &valueCall[V]{waiters: []chan<- V{ch}}
	g.calls[key] = c
	g.runs = append(g.runs, g.run)
	g.mu.Unlock()
	go g.run(c, key, fn)
	return ch
}

func (g *valueGroup[V]) run(c *valueCall[V], key string, fn func() V) {
	v := fn()
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, ch := range c.waiters {
		ch <- v // want `send on ch \(chan<- V, cap 1\) can block forever: its receiver is the caller that \(\*valueGroup\[V\]\)\.DoChan hands it to, who can stop reading`
	}
}

// A group that answers a call's waiters twice, a provisional result and
// then the final one, walks them twice: the second answer finds the slot
// of a waiter that stopped reading full.

type twoPhaseCall struct {
	waiters []chan<- lookupResult
}

type twoPhaseGroup struct {
	mu    sync.Mutex
	calls map[string]*twoPhaseCall
}

func (g *twoPhaseGroup) Lookup(host string, cached, resolve func(string) lookupResult) <-chan lookupResult {
	ch := make(chan lookupResult, 1)
	g.mu.Lock()
	if c, ok := g.calls[host]; ok {
		c.waiters = append(c.waiters, ch)
		g.mu.Unlock()
		return ch
	}
	c := &twoPhaseCall{waiters: []chan<- lookupResult{ch}}
	g.calls[host] = c
	g.mu.Unlock()
	g.answer(c, cached(host))
	g.answer(c, resolve(host))
	return ch
}

func (g *twoPhaseGroup) answer(c *twoPhaseCall, res lookupResult) {
	for _, ch := range c.waiters {
		ch <- res // want `send on ch \(chan<- lookupResult, cap 1\) can block forever: its receiver is the caller that \(\*twoPhaseGroup\)\.Lookup hands it to, who can stop reading`
	}
}

// One that answers in a loop of attempts does the same.

type attemptCall struct {
	waiters []chan<- lookupResult
}

type attemptGroup struct {
	calls map[string]*attemptCall
}

func (g *attemptGroup) Lookup(host string, resolve func(string) lookupResult) <-chan lookupResult {
	ch := make(chan lookupResult, 1)
	if c, ok := g.calls[host]; ok {
		c.waiters = append(c.waiters, ch)
		return ch
	}
	c := &attemptCall{waiters: []chan<- lookupResult{ch}}
	g.calls[host] = c
	for range 3 {
		g.answer(c, resolve(host))
	}
	return ch
}

func (g *attemptGroup) answer(c *attemptCall, res lookupResult) {
	for _, ch := range c.waiters {
		ch <- res // want `send on ch \(chan<- lookupResult, cap 1\) can block forever: its receiver is the caller that \(\*attemptGroup\)\.Lookup hands it to, who can stop reading`
	}
}

// A group whose callers can also cancel a call answers its waiters from
// two places, the run and the cancel, which may both come: a waiter that
// stopped reading after the first answer blocks the second.

type cancelCall struct {
	waiters []chan<- lookupResult
}

type cancelGroup struct {
	mu    sync.Mutex
	calls map[string]*cancelCall
}

func (g *cancelGroup) Lookup(host string, resolve func(string) lookupResult) <-chan lookupResult {
	ch := make(chan lookupResult, 1)
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.calls[host]; ok {
		c.waiters = append(c.waiters, ch)
		return ch
	}
	c := &cancelCall{waiters: []chan<- lookupResult{ch}}
	g.calls[host] = c
	go g.run(c, resolve(host))
	return ch
}

func (g *cancelGroup) run(c *cancelCall, res lookupResult) {
	for _, ch := range c.waiters {
		ch <- res // want `send on ch \(chan<- lookupResult, cap 1\) can block forever: its receiver is the caller that \(\*cancelGroup\)\.Lookup hands it to, who can stop reading`
	}
}

func (g *cancelGroup) Cancel(host string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.calls[host]; ok {
		for _, ch := range c.waiters {
			ch <- lookupResult{err: errNoProbe} // want `send on ch \(chan<- lookupResult, cap 1\) can block forever: its receiver is the caller that \(\*cancelGroup\)\.Lookup hands it to, who can stop reading`
		}
	}
}
