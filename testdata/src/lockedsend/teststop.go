package lockedsend

import "sync"

// A send under a lock waits for a receiver that shipped code never stops:
// only a test closes the stop channel of coordinator's loop, so the send
// is not proven to block forever, and with no receiver that needs the lock
// it is audited. With an exported Close it is reported.
type coordinator struct {
	mu       sync.Mutex
	closeCh  chan struct{}
	requests chan int
}

func newCoordinator() *coordinator {
	c := &coordinator{closeCh: make(chan struct{}), requests: make(chan int)}
	go c.loop()
	return c
}

func (c *coordinator) loop() {
	for {
		select {
		case <-c.closeCh:
			return
		case r := <-c.requests:
			_ = r
		}
	}
}

func (c *coordinator) close() { close(c.closeCh) }

func (c *coordinator) RequestTestStopAudit(r int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests <- r // want `send on c\.requests can block while c\.mu is held: .*\[audit: no receiver of it is seen to need the lock\]`
}

type closingCoordinator struct {
	mu       sync.Mutex
	closeCh  chan struct{}
	requests chan int
	sent     int
}

func newClosingCoordinator() *closingCoordinator {
	c := &closingCoordinator{closeCh: make(chan struct{}), requests: make(chan int)}
	go c.loop()
	return c
}

func (c *closingCoordinator) loop() {
	for {
		select {
		case <-c.closeCh:
			return
		case r := <-c.requests:
			_ = r
		}
	}
}

func (c *closingCoordinator) Close() { close(c.closeCh) }

// Sent needs c.mu too: it waits as long as a request held under it.
func (c *closingCoordinator) Sent() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent
}

func (c *closingCoordinator) RequestClosedBad(r int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent++
	c.requests <- r // want `send on c\.requests can block forever while c\.mu is held: its receiver \(\*closingCoordinator\)\.loop can stop receiving, and .*; every goroutine that needs c\.mu waits with it$`
}
