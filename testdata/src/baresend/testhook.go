package baresend

import "context"

// A per-peer message queue lets its tests watch it: the constructor the
// tests call takes a channel of events, and the one the program calls
// passes nil. The queue tells the channel only when it is set, so in a
// shipped program the send never runs, and a test reads what it asked
// for.

type queueEvent int

const (
	messageQueued queueEvent = iota
	messageSent
)

type peerQueue struct {
	ctx    context.Context
	work   chan string
	events chan<- queueEvent
}

// NewPeerQueue is what the program calls.
func NewPeerQueue(ctx context.Context) *peerQueue {
	return newPeerQueue(ctx, nil)
}

// newPeerQueue is also what the tests call, with a channel to watch.
func newPeerQueue(ctx context.Context, events chan<- queueEvent) *peerQueue {
	return &peerQueue{ctx: ctx, work: make(chan string, 16), events: events}
}

func (q *peerQueue) Add(msg string) {
	select {
	case q.work <- msg:
	case <-q.ctx.Done():
		return
	}
	if q.events != nil {
		q.events <- messageQueued // ok: only a test sets events
	}
}

func (q *peerQueue) run() {
	for {
		select {
		case <-q.work:
			if q.events == nil {
				continue
			}
			q.events <- messageSent // ok: the loop goes on only when events is set
		case <-q.ctx.Done():
			return
		}
	}
}

// A rate sampler measures its peers on a timer; a constructor named for
// the tests sets a channel that the sampler tells after each round.

type rateSampler struct {
	closing chan struct{}
	sampled chan struct{}
}

func NewRateSampler() *rateSampler {
	return &rateSampler{closing: make(chan struct{})}
}

// NewTestSampler is the sampler a test drives round by round.
func NewTestSampler(sampled chan struct{}) *rateSampler {
	r := NewRateSampler()
	r.sampled = sampled
	return r
}

func (r *rateSampler) sampleRound() {
	if r.sampled != nil {
		r.sampled <- struct{}{} // ok: only NewTestSampler sets it
	}
}

// Near misses.

// A hook the program sets too: WithProgress is an option any caller uses.
type copier struct {
	ctx      context.Context
	progress chan<- int
}

func newCopier(ctx context.Context, progress chan<- int) *copier {
	return &copier{ctx: ctx, progress: progress}
}

func NewCopier(ctx context.Context) *copier { return newCopier(ctx, nil) }

func NewCopierWithProgress(ctx context.Context, progress chan<- int) *copier {
	return newCopier(ctx, progress)
}

func (c *copier) copied(n int) {
	if c.progress != nil {
		c.progress <- n // want `send on c.progress .*\[audit: no receiver of it is visible in this package\]`
	}
}

// A channel only a test sets, sent on without the test: in the program
// the channel is nil, and a send on nil blocks for good.
type prober struct {
	ctx    context.Context
	probed chan<- string
}

func newProber(ctx context.Context, probed chan<- string) *prober {
	return &prober{ctx: ctx, probed: probed}
}

func NewProber(ctx context.Context) *prober { return newProber(ctx, nil) }

func (p *prober) probe(addr string) {
	p.probed <- addr // want `send on p.probed .*\[audit: no receiver of it is visible in this package\]`
}

// A name that only contains the word: Latest is no test.
type latestFeed struct {
	ctx    context.Context
	latest chan<- string
}

func newFeedLatest(ctx context.Context, latest chan<- string) *latestFeed {
	return &latestFeed{ctx: ctx, latest: latest}
}

func NewLatestFeed(ctx context.Context, out chan<- string) *latestFeed {
	return newFeedLatest(ctx, out)
}

func (f *latestFeed) publish(v string) {
	if f.latest != nil {
		f.latest <- v // want `send on f.latest .*\[audit: no receiver of it is visible in this package\]`
	}
}
