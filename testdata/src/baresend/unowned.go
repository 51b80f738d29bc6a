// Package baresend holds one file per rule of the baresend pass, each
// positive beside the negative that differs from it by the rule.
package baresend

import (
	"context"
	"time"
)

// Response is what a server replies to one client.
type Response struct {
	ID  int
	Err error
}

// client is one connected client with its reply channel.
type client struct {
	responses chan Response
	ctx       context.Context
}

func newClient(ctx context.Context) *client {
	return &client{responses: make(chan Response, 16), ctx: ctx}
}

// server replies to many clients.
type server struct {
	clients map[int]chan Response
	byIndex []chan Response
	stop    chan struct{}
}

var events = make(chan string)

// No receiver of c.responses is in this package, but its other sends give
// up when the client's ctx is done (replyToFieldWithCtxOK): the package
// itself says the client may stop reading, so this send is proven.
func replyToFieldBad(c *client, r Response) {
	c.responses <- r // want `send on c.responses \(chan Response, cap 16\) can block forever: the package's other send on it gives up when ctx is done, as its receivers may be gone by then, and this send has no such case$`
}

func replyToFieldWithCtxOK(c *client, r Response) {
	select {
	case c.responses <- r: // ok: the client's ctx is a way out
	case <-c.ctx.Done():
	}
}

func replyToFieldWithStopOK(s *server, c *client, r Response) {
	select {
	case c.responses <- r: // ok: the server's stop channel is a way out
	case <-s.stop:
	}
}

func replyToFieldWithTimerOK(c *client, r Response) {
	select {
	case c.responses <- r: // ok: a timer is a way out
	case <-time.After(time.Second):
	}
}

func replyToMapBad(s *server, id int, r Response) {
	s.clients[id] <- r // want `send on s.clients\[id\] \(chan Response\) can block forever.*\[audit: `
}

func replyToSliceBad(s *server, r Response) {
	s.byIndex[0] <- r // want `send on s.byIndex\[0\] \(chan Response\) can block forever.*\[audit: `
}

func publishGlobalBad(e string) {
	events <- e // want `send on events \(chan string, unbuffered\) can block forever.*\[audit: `
}

// Reply is exported: its callers are not all visible.
func Reply(out chan<- Response, r Response) {
	out <- r // want `send on out \(chan<- Response\) can block forever.*\[audit: `
}

func replyToReceivedBad(chans chan chan Response, r Response) {
	ch := <-chans
	ch <- r // want `send on ch \(chan Response\) can block forever.*\[audit: `
}
