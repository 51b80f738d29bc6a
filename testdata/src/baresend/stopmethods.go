package baresend

import (
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
