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
