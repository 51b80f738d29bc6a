// Package replies is a small server that replies to clients on their own
// channels, for the end-to-end tests of the sendlint command.
package replies

import "context"

// Client is one connected client.
type Client struct {
	responses chan string
	ctx       context.Context
}

// NewClient registers a client with room for 8 replies.
func NewClient(ctx context.Context) *Client {
	return &Client{responses: make(chan string, 8), ctx: ctx}
}

// Reply blocks forever once the client stops reading.
func Reply(c *Client, msg string) {
	c.responses <- msg
}

// ReplyOrGiveUp gives up when the client goes away.
func ReplyOrGiveUp(c *Client, msg string) bool {
	select {
	case c.responses <- msg:
		return true
	case <-c.ctx.Done():
		return false
	}
}

// Serve writes the client's replies until its context ends; from then on
// nothing reads c.responses, and Reply blocks once the buffer is full.
func (c *Client) Serve(write func(string)) {
	for {
		select {
		case msg := <-c.responses:
			write(msg)
		case <-c.ctx.Done():
			return
		}
	}
}

// Start serves the client's replies on a goroutine of its own.
func (c *Client) Start(write func(string)) { go c.Serve(write) }

// Connect registers a client and starts serving it.
func Connect(ctx context.Context, write func(string)) *Client {
	c := NewClient(ctx)
	c.Start(write)
	return c
}
