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
// itself says the client may stop reading. A client's own method sends
// on its channel for as long as the client lives, so once its reader has
// gone the buffer fills: proven.
func (c *client) replyBad(r Response) {
	c.responses <- r // want `send on c.responses \(chan Response, cap 16\) can block forever: the package's other send on it gives up when ctx is done, as its receivers may be gone by then, and this send has no such case$`
}

// A function handed the client sends one value: whether that can find
// the buffer full depends on how often it is called for one client, which
// the pass does not count. The client could as well be a request with its
// one reply: audit.
func replyToFieldBad(c *client, r Response) {
	c.responses <- r // want `send on c.responses \(chan Response, cap 16\) can block forever: the package's other send on it gives up when ctx is done, as its receivers may be gone by then, and this send has no such case \[audit: the channel is reached through c, a value handed to replyToFieldBad, not through the object whose methods send on it: the other send's give-up says its receiver may leave, but not that one such value gets more values than its buffer holds\]$`
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

// A directory looks its clients up for the server that replies to them:
// a client it finds lives as long as the directory keeps it, and every
// reply goes through it.
type clientDirectory struct{ byID map[int]*client }

func (d *clientDirectory) lookup(id int) *client { return d.byID[id] }

func (d *clientDirectory) replyBad(id int, r Response) {
	d.lookup(id).responses <- r // want `send on d\.lookup\(id\)\.responses \(chan Response, cap 16\) can block forever: the package's other send on it gives up when ctx is done, as its receivers may be gone by then, and this send has no such case$`
}
