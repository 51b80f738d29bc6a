package lockedsend

import (
	"sync"
	"testing"
)

// A test that holds a lock while it signals orders its goroutines on
// purpose; it is not reported.
func TestSignalUnderLock(t *testing.T) {
	var mu sync.Mutex
	running := make(chan bool)
	go func() {
		mu.Lock()
		running <- true
		mu.Unlock()
	}()
	<-running
}

// A test shrinks the opener's queue to see it fill; production code
// never does.
func TestOpenerSmallQueue(t *testing.T) {
	openerQueueSize = 2
	defer func() { openerQueueSize = 1000000 }()
	o := newOpener()
	o.requestVastAudit()
}

// Only a test stops the coordinator's loop.
func TestCoordinator(t *testing.T) {
	c := newCoordinator()
	c.RequestTestStopAudit(1)
	c.close()
}
