package baresend

import (
	"context"
	"time"
)

// Target providers of a service-discovery manager: the manager starts
// each provider's Run with its own context and a channel for the groups
// the provider finds, and stops reading that channel once it cancels the
// context. A provider that watches the context between refreshes but
// sends without it is left on the send for good when the cancel comes
// while a refresh is under way.

type targetGroup struct{ targets []string }

func refreshGroups() []targetGroup { return nil }

// fileProvider sends each refresh bare, and watches ctx only between them.
type fileProvider struct{ interval time.Duration }

func (p *fileProvider) Run(ctx context.Context, ch chan<- []targetGroup) {
	ticker := time.NewTicker(p.interval)
	defer ticker.Stop()
	for {
		ch <- refreshGroups() // want `send on ch \(chan<- \[\]targetGroup\) can block forever: its receiver is the caller that hands it to \(\*fileProvider\)\.Run with a context, who can stop reading once the context is done, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up, though \(\*fileProvider\)\.Run gives up on that context elsewhere`
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// dnsProvider watches a context it derives from the caller's, with a
// deadline of its own: that one is done when the caller's is.
type dnsProvider struct{ timeout time.Duration }

func (p *dnsProvider) Run(ctx context.Context, ch chan<- []targetGroup) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	for {
		ch <- refreshGroups() // want `send on ch .* can block forever: its receiver is the caller that hands it to \(\*dnsProvider\)\.Run with a context`
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// watchProvider sends from a watcher goroutine it starts; the goroutine
// ignores the context its Run gives up on.
type watchProvider struct{ events chan []targetGroup }

func (p *watchProvider) Run(ctx context.Context, ch chan<- []targetGroup) {
	go func() {
		for groups := range p.events {
			ch <- groups // want `send on ch .* can block forever: its receiver is the caller that hands it to \(\*watchProvider\)\.Run with a context`
		}
	}()
	<-ctx.Done()
}

// politeProvider gives up on the context at the send too.
type politeProvider struct{}

func (politeProvider) Run(ctx context.Context, ch chan<- []targetGroup) {
	for {
		select {
		case ch <- refreshGroups(): // ok: gives up when the caller cancels
		case <-ctx.Done():
			return
		}
	}
}

// streamProvider closes the channel when it is done: its caller reads
// until then. Audited.
type streamProvider struct{}

func (streamProvider) Run(ctx context.Context, ch chan<- []targetGroup) {
	defer close(ch)
	for ctx.Err() == nil {
		ch <- refreshGroups() // want `send on ch .* \[audit: no receiver of it is visible in this package\]`
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// staticProvider sends its one group once: the caller may read exactly
// once, or hand it a buffer. Audited.
type staticProvider struct{ group targetGroup }

func (p staticProvider) Run(ctx context.Context, ch chan<- []targetGroup) {
	ch <- []targetGroup{p.group} // want `send on ch .* \[audit: no receiver of it is visible in this package\]`
	<-ctx.Done()
}

// lookupProvider hands its context on to the lookups and never watches
// it itself: nothing shows that its caller stops reading when the
// context ends. Audited.
type lookupProvider struct{}

func lookupGroups(ctx context.Context) []targetGroup { return nil }

func (lookupProvider) Run(ctx context.Context, ch chan<- []targetGroup) {
	for ctx.Err() == nil {
		ch <- lookupGroups(ctx) // want `send on ch .* \[audit: no receiver of it is visible in this package\]`
	}
}

// quitProvider is told to stop by a channel, not a context. Audited.
type quitProvider struct{}

func (quitProvider) Run(quit <-chan struct{}, ch chan<- []targetGroup) {
	for {
		ch <- refreshGroups() // want `send on ch .* \[audit: no receiver of it is visible in this package\]`
		select {
		case <-quit:
			return
		case <-time.After(time.Second):
		}
	}
}

// A retry controller keeps the context it was started with beside the
// channel that paces its caller's attempts. Its loop ends when the
// context does, and so does the caller's wait (Continue selects on both),
// but the loop's send of the next attempt does not give up with it: a
// cancel that comes as the timer fires leaves the loop on the send.

type retryCtl interface {
	Done() <-chan struct{}
	Next() <-chan struct{}
}

// Continue waits for the next attempt, or the controller's end.
func Continue(c retryCtl) bool {
	select {
	case <-c.Done():
		return false
	case _, ok := <-c.Next():
		return ok
	}
}

type retryController struct {
	ctx   context.Context
	next  chan struct{}
	timer *time.Timer
}

func (c *retryController) Done() <-chan struct{} { return c.ctx.Done() }
func (c *retryController) Next() <-chan struct{} { return c.next }

func (c *retryController) loop() {
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.timer.C:
			c.next <- struct{}{} // want `send on c\.next \(chan struct\{\}, cap 1\) can block forever: its receivers, outside this package, can stop reading once the context kept beside it is done, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up, though \(\*retryController\)\.loop gives up on that context elsewhere`
			c.timer.Reset(time.Second)
		}
	}
}

func startRetry(ctx context.Context) retryCtl {
	c := &retryController{ctx: ctx, next: make(chan struct{}, 1), timer: time.NewTimer(time.Second)}
	go c.loop()
	return c
}

// closingController closes its channel as its loop ends: its readers read
// until then. Audited.
type closingController struct {
	ctx   context.Context
	next  chan struct{}
	timer *time.Timer
}

func (c *closingController) Done() <-chan struct{} { return c.ctx.Done() }
func (c *closingController) Next() <-chan struct{} { return c.next }

func (c *closingController) loop() {
	defer close(c.next)
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.timer.C:
			c.next <- struct{}{} // want `send on c\.next .* \[audit: no receiver of it is visible in this package\]`
			c.timer.Reset(time.Second)
		}
	}
}

func startClosing(ctx context.Context) retryCtl {
	c := &closingController{ctx: ctx, next: make(chan struct{}, 1), timer: time.NewTimer(time.Second)}
	go c.loop()
	return c
}

// onceController sends its one attempt outside any loop. Audited.
type onceController struct {
	ctx  context.Context
	next chan struct{}
}

func (c *onceController) Done() <-chan struct{} { return c.ctx.Done() }
func (c *onceController) Next() <-chan struct{} { return c.next }

func (c *onceController) run() {
	c.next <- struct{}{} // want `send on c\.next .* \[audit: no receiver of it is visible in this package\]`
	<-c.ctx.Done()
}

func startOnce(ctx context.Context) retryCtl {
	c := &onceController{ctx: ctx, next: make(chan struct{})}
	go c.run()
	return c
}

// parentController's loop watches another object's context, not the one
// kept beside its channel. Audited.
type parentController struct {
	parent *retryController
	next   chan struct{}
	timer  *time.Timer
}

func (c *parentController) Done() <-chan struct{} { return c.parent.ctx.Done() }
func (c *parentController) Next() <-chan struct{} { return c.next }

func (c *parentController) loop() {
	for {
		select {
		case <-c.parent.ctx.Done():
			return
		case <-c.timer.C:
			c.next <- struct{}{} // want `send on c\.next .* \[audit: no receiver of it is visible in this package\]`
			c.timer.Reset(time.Second)
		}
	}
}

func startParent(p *retryController) retryCtl {
	c := &parentController{parent: p, next: make(chan struct{}, 1), timer: time.NewTimer(time.Second)}
	go c.loop()
	return c
}

var _ = []func(context.Context) retryCtl{startRetry, startClosing, startOnce}
var _ = startParent
