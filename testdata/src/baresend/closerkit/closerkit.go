// Package closerkit holds what a goroutine needs to be told to stop and
// to be waited for: a stop channel and a WaitGroup that counts the
// goroutines it was handed to. Its methods carry Group facts: Done marks
// one goroutine done, Wait and SignalAndWait wait for all of them;
// Signal and HasBeenClosed touch no count. HasBeenClosed carries a
// StopMethod fact: it returns the stop channel, which only Signal closes.
package closerkit

import "sync"

type Closer struct {
	waiting sync.WaitGroup
	stop    chan struct{}
	once    sync.Once
}

func New(initial int) *Closer {
	c := &Closer{stop: make(chan struct{})}
	c.waiting.Add(initial)
	return c
}

func (c *Closer) AddRunning(delta int) { c.waiting.Add(delta) }

func (c *Closer) Signal() { c.once.Do(func() { close(c.stop) }) }

func (c *Closer) HasBeenClosed() <-chan struct{} { return c.stop } // want HasBeenClosed:`returns the stop channel stop`

func (c *Closer) Done() { // want Done:`marks a goroutine counted in waiting done`
	if c == nil {
		return
	}
	c.waiting.Done()
}

func (c *Closer) Wait() { c.waiting.Wait() } // want Wait:`waits for the goroutines counted in waiting`

func (c *Closer) SignalAndWait() { // want SignalAndWait:`waits for the goroutines counted in waiting`
	c.Signal()
	c.Wait()
}

// WaitSometimes waits only when asked to: it is no wait on every path.
func (c *Closer) WaitSometimes(really bool) {
	if really {
		c.waiting.Wait()
	}
}
