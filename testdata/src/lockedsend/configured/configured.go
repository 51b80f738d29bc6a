// Package configured is checked with -lockedsend.blocking and
// -lockedsend.streams naming its own types and functions.
package configured

import "sync"

// Client publishes to a broker; configured: (*Client).Publish blocks.
type Client struct{}

func (c *Client) Publish(b []byte) error { return nil }

func (c *Client) Close() error { return nil }

// Flush is configured as blocking.
func Flush() {}

// Pipe is configured as a stream type: its Send blocks.
type Pipe interface {
	Send(b []byte) error
	Recv() ([]byte, error)
}

func publishBad(mu *sync.Mutex, c *Client) error {
	mu.Lock()
	defer mu.Unlock()
	return c.Publish(nil) // want `call to c\.Publish \(configured as blocking\) can block while mu is held: every goroutine that needs mu waits for it`
}

func closeOK(mu *sync.Mutex, c *Client) error {
	mu.Lock()
	defer mu.Unlock()
	return c.Close()
}

func flushAll() { Flush() }

func flushBad(mu *sync.Mutex) {
	mu.Lock()
	flushAll() // want `call to flushAll can block while mu is held: configured\.flushAll → call to configured\.Flush \(configured as blocking\)`
	mu.Unlock()
}

func pipeBad(mu *sync.Mutex, p Pipe) error {
	mu.Lock()
	defer mu.Unlock()
	return p.Send(nil) // want `stream send p\.Send can block while mu is held`
}

func pipeRecvOK(mu *sync.Mutex, p Pipe) error {
	mu.Lock()
	defer mu.Unlock()
	_, err := p.Recv()
	return err
}
