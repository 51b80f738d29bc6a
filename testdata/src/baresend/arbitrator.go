package baresend

import (
	"errors"
	"sync"
)

// A chain arbitrator starts one watcher per channel in parallel and
// collects their start errors in a buffer of one slot per watcher. Each
// goroutine reports once: its start result, or, when the arbitrator quits
// first, that it is exiting. The collector stops at the first error and
// leaves the rest in the buffer, which holds them all.
type chainWatcher struct{ start func() error }

type chainArbitrator struct {
	activeWatchers map[string]*chainWatcher
	quit           chan struct{}
}

func (c *chainArbitrator) Start() error {
	watcherErrs := make(chan error, len(c.activeWatchers))
	var wg sync.WaitGroup
	for _, watcher := range c.activeWatchers {
		wg.Add(1)
		go func(w *chainWatcher) {
			defer wg.Done()
			select {
			case watcherErrs <- w.start():
			case <-c.quit:
				watcherErrs <- errArbExiting // ok: one value per watcher either way
			}
		}(watcher)
	}
	go func() {
		wg.Wait()
		close(watcherErrs)
	}()
	for err := range watcherErrs {
		if err != nil {
			return err
		}
	}
	return nil
}

var errArbExiting = errors.New("chain arbitrator exiting")

// A watcher that also reports that it started, after its start result,
// sends two values on that path: the buffer holds one per watcher.
func (c *chainArbitrator) StartChatty() error {
	watcherErrs := make(chan error, len(c.activeWatchers))
	var wg sync.WaitGroup
	for _, watcher := range c.activeWatchers {
		wg.Add(1)
		go func(w *chainWatcher) {
			defer wg.Done()
			select {
			case watcherErrs <- w.start(): // gives up on quit: not a bare send
				watcherErrs <- errArbStarted // want `send on watcherErrs \(chan error, cap len\(c\.activeWatchers\)\) can block forever: \(\*chainArbitrator\)\.StartChatty can return before receiving every value`
			case <-c.quit:
				watcherErrs <- errArbExiting // want `send on watcherErrs \(chan error, cap len\(c\.activeWatchers\)\) can block forever: \(\*chainArbitrator\)\.StartChatty can return before receiving every value`
			}
		}(watcher)
	}
	go func() {
		wg.Wait()
		close(watcherErrs)
	}()
	for err := range watcherErrs {
		if err != nil {
			return err
		}
	}
	return nil
}

var errArbStarted = errors.New("chain watcher started")
