package baresend

import (
	"context"

	"baresend/switchkit"
)

// A peer serves close requests of a type another package declares, and
// fills, with channels of its own. The bump request it makes here has one
// slot; requests from the switch have two. The message does not print the
// slots this package makes as the channel's capacity: other packages make
// it too.

func bumpClose(ctx context.Context) *switchkit.CloseRequest {
	return &switchkit.CloseRequest{Ctx: ctx, Updates: make(chan any, 1), Err: make(chan error, 1)}
}

// observeClose forwards a close's updates for as long as the requester
// waits, and then the final one with a bare send: the requester that left
// on its Ctx left the buffer full of updates, and the final send waits
// for good. The loop that gives up and the send that does not are one
// run on one request, so it is reported.
func observeClose(req *switchkit.CloseRequest, updates <-chan any, final any) {
	for u := range updates {
		select {
		case req.Updates <- u:
		case <-req.Ctx.Done():
			return
		}
	}
	req.Updates <- final // want `send on req\.Updates \(chan any\) can block forever: the package's other send on it gives up when Ctx is done, as its receivers may be gone by then, and this send has no such case$`
}

// failNegotiation reports a failed negotiation, as the observer does,
// giving up when the requester has left.
func failNegotiation(req *switchkit.CloseRequest, err error) {
	select {
	case req.Err <- err:
	case <-req.Ctx.Done():
	}
}

// rejectClose answers a request it was handed with one error, and stops
// watching it however it returns. Whether another value can already sit
// in that request's one slot is up to the code that hands requests out,
// which the pass does not count: audit.
func rejectClose(req *switchkit.CloseRequest, err error, unwatch func(*switchkit.CloseRequest)) {
	defer func() { unwatch(req) }()
	req.Err <- err // want `send on req\.Err \(chan error\) can block forever: the package's other send on it gives up when Ctx is done.*\[audit: the channel is reached through req, a value handed to rejectClose, not through the object whose methods send on it`
}

// serveCloses answers each request its queue delivers once, on its Err.
// A request taken from a channel is handed over as a parameter is: its
// one reply is what its slot was made for, as far as the pass can tell.
func serveCloses(reqs <-chan *switchkit.CloseRequest, err error) {
	for req := range reqs {
		req.Err <- err // want `send on req\.Err \(chan error\) can block forever: .*\[audit: the channel is reached through a value received from a channel, not through the object whose methods send on it`
	}
}

// A chanCloser carries the request that started it.
type chanCloser struct{ req *switchkit.CloseRequest }

func (c *chanCloser) Request() *switchkit.CloseRequest { return c.req }

// announcePending tells the requester of the chanCloser it is handed that the
// close is pending: one update per chanCloser, as far as the pass can see.
func announcePending(c *chanCloser, update any) {
	req := c.Request()
	go func() {
		req.Updates <- update // want `send on req\.Updates \(chan any\) can block forever: .*\[audit: the channel is reached through c, a value handed to announcePending, not through the object`
	}()
}
