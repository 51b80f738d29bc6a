// Package basekit is the base that a node's services embed: Start runs
// the service's OnStart once, Stop closes the channel Quit returns, and
// the service's loops give up on it. Quit carries a StopMethod fact, so
// that a loop in another package that gives up on it is known to stop for
// good once the service stops. Events hands out a channel of values, no
// stop signal.
package basekit

import "sync/atomic"

type Starter interface{ OnStart() }

type BaseService struct {
	impl    Starter
	started atomic.Bool
	quit    chan struct{}
	events  chan string
}

func NewBaseService(impl Starter) *BaseService {
	return &BaseService{impl: impl, quit: make(chan struct{}), events: make(chan string, 1)}
}

func (bs *BaseService) Start() {
	if bs.started.CompareAndSwap(false, true) {
		bs.impl.OnStart()
	}
}

func (bs *BaseService) Stop() { close(bs.quit) }

func (bs *BaseService) Quit() <-chan struct{} { return bs.quit } // want Quit:`returns the stop channel quit`

// Events carries the service's state changes, one value each.
func (bs *BaseService) Events() <-chan string { return bs.events }

func (bs *BaseService) Notify(s string) {
	select {
	case bs.events <- s:
	default:
	}
}
