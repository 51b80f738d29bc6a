// Package peers is a peer-to-peer switch that its users plug reactors
// into: it calls every reactor back when a peer goes away.
package peers

import "sync"

// Reactor is what a user of the switch implements.
type Reactor interface {
	RemovePeer(id string)
}

// Switcher is the switch as reactors see it.
type Switcher interface {
	StopPeer(id string)
}

// Mutex is the project's own mutex, nothing but a sync.Mutex.
type Mutex struct{ sync.Mutex }

// Switch connects peers to reactors.
type Switch struct {
	mu       Mutex
	reactors []Reactor
	peers    map[string]bool
}

// AddReactor plugs r in.
func (sw *Switch) AddReactor(r Reactor) { sw.reactors = append(sw.reactors, r) }

// StopPeer disconnects a peer and tells every reactor.
func (sw *Switch) StopPeer(id string) {
	sw.mu.Lock()
	delete(sw.peers, id)
	sw.mu.Unlock()
	for _, r := range sw.reactors {
		r.RemovePeer(id)
	}
}

// Has reports whether the peer is connected.
func (sw *Switch) Has(id string) bool {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.peers[id]
}

// frame is a buffer the switch recycles; only this package's Base can
// implement it, and types that embed Base.
type frame interface{ invalidate() }

// Base carries what every frame type needs.
type Base struct{ valid bool }

func (b *Base) invalidate() { b.valid = false }

// Recycle drops a frame back into the pool.
func Recycle(f frame) { f.invalidate() }
