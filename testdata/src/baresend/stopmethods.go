package baresend

import (
	"context"
	"time"

	"baresend/basekit"
)

// A node's peer-statistics service embeds the base service of another
// package. Its loop gives up when the service quits, through the base's
// Quit, and the consensus machine keeps forwarding the votes it accepts
// afterwards: once the 64 slots are full, the machine waits for good.
type peerStats struct {
	*basekit.BaseService
	votes chan string
}

func NewPeerStats() *peerStats {
	p := &peerStats{votes: make(chan string, 64)}
	p.BaseService = basekit.NewBaseService(p)
	return p
}

func (p *peerStats) OnStart() { go p.statsRoutine() }

func (p *peerStats) statsRoutine() {
	for {
		select {
		case v := <-p.votes:
			_ = v
		case <-p.Quit():
			return
		}
	}
}

func (p *peerStats) ForwardVotes(accepted <-chan string) {
	for peer := range accepted {
		p.votes <- peer // want `send on p\.votes \(chan string, cap 64\) can block forever: its receiver \(\*peerStats\)\.statsRoutine can stop receiving`
	}
}

// A timeout ticker hands its stop channel out through a method of its own;
// its loop gives up on it the same way.
type timeoutTicker struct {
	tick chan time.Duration
	done chan struct{}
}

func NewTimeoutTicker() *timeoutTicker {
	return &timeoutTicker{tick: make(chan time.Duration), done: make(chan struct{})}
}

func (t *timeoutTicker) Done() <-chan struct{} { return t.done }

func (t *timeoutTicker) Start() { go t.timeoutRoutine() }

func (t *timeoutTicker) Stop() { close(t.done) }

func (t *timeoutTicker) timeoutRoutine() {
	for {
		select {
		case d := <-t.tick:
			time.Sleep(d)
		case <-t.Done():
			return
		}
	}
}

func (t *timeoutTicker) Schedule(d time.Duration) {
	t.tick <- d // want `send on t\.tick \(chan time\.Duration, unbuffered\) can block forever: its receiver \(\*timeoutTicker\)\.timeoutRoutine can stop receiving`
}

// A gossip service's loop gives up on the base's next event instead, a
// channel of values: the next run of the loop, started by the next
// OnStart, receives again, so no stop is for good.
type gossip struct {
	*basekit.BaseService
	msgs chan string
}

func NewGossip() *gossip {
	g := &gossip{msgs: make(chan string, 8)}
	g.BaseService = basekit.NewBaseService(g)
	return g
}

func (g *gossip) OnStart() { go g.gossipRoutine() }

func (g *gossip) gossipRoutine() {
	for {
		select {
		case m := <-g.msgs:
			_ = m
		case <-g.Events():
			return
		}
	}
}

func (g *gossip) Broadcast(m string) {
	g.msgs <- m // want `\[audit: its receiver \(\*gossip\)\.gossipRoutine can stop waiting, but may run again for the same channel\]`
}

// A metrics router keeps the context it was made with; its Run loop, which
// a supervisor may call again, gives up when that context is done, and it
// stays done: once Close has cancelled it, no run receives, and a report
// made after that waits for good.
type metricsRouter struct {
	ctx     context.Context
	cancel  context.CancelFunc
	reports chan string
}

func NewMetricsRouter(ctx context.Context) *metricsRouter {
	r := &metricsRouter{reports: make(chan string)}
	r.ctx, r.cancel = context.WithCancel(ctx)
	return r
}

func (r *metricsRouter) Run() {
	for {
		select {
		case m := <-r.reports:
			_ = m
		case <-r.ctx.Done():
			return
		}
	}
}

func (r *metricsRouter) Close() { r.cancel() }

func (r *metricsRouter) Report(m string) {
	r.reports <- m // want `send on r\.reports \(chan string, unbuffered\) can block forever: its receiver \(\*metricsRouter\)\.Run can stop receiving`
}

// A job runner makes a new context for every Start, so the loop that gave
// up on the last one runs again, on a live context, after the next Start.
type jobRunner struct {
	ctx    context.Context
	cancel context.CancelFunc
	jobs   chan string
}

func NewJobRunner() *jobRunner { return &jobRunner{jobs: make(chan string)} }

func (j *jobRunner) Start() {
	j.ctx, j.cancel = context.WithCancel(context.Background())
	go j.loop()
}

func (j *jobRunner) Stop() { j.cancel() }

func (j *jobRunner) loop() {
	for {
		select {
		case name := <-j.jobs:
			_ = name
		case <-j.ctx.Done():
			return
		}
	}
}

func (j *jobRunner) Submit(name string) {
	j.jobs <- name // want `\[audit: its receiver \(\*jobRunner\)\.loop can stop waiting, but may run again for the same channel\]`
}

// An idle watcher is made with a root context, which no one cancels: its
// loop never gives up on it, and a later Watch receives again.
type idleWatcher struct {
	ctx   context.Context
	ticks chan int
}

func NewIdleWatcher() *idleWatcher {
	return &idleWatcher{ctx: context.Background(), ticks: make(chan int)}
}

func (w *idleWatcher) Watch() { go w.watch() }

func (w *idleWatcher) watch() {
	for {
		select {
		case n := <-w.ticks:
			_ = n
		case <-w.ctx.Done():
			return
		}
	}
}

func (w *idleWatcher) Tick(n int) {
	w.ticks <- n // want `\[audit: its receiver \(\*idleWatcher\)\.watch can stop waiting, but may run again for the same channel\]`
}
