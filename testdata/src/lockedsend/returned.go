package lockedsend

import (
	"context"
	"sync"
)

// A channel an exported method returns goes to its caller, who reads it and
// calls the package as it goes, the way a loop over a pin set's keys unpins
// some of them. A goroutine that sends on it while it holds a lock that an
// exported method takes can then wait for a caller who waits for the lock.

type pinIndex interface {
	Each(ctx context.Context, visit func(key string) bool) error
}

type pinned struct {
	key string
	err error
}

type pinSet struct {
	mu    sync.RWMutex
	index pinIndex
	names map[string]string
}

// Pin takes mu for writing.
func (s *pinSet) Pin(key, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.names[key] = name
}

// Keys streams the index under the read lock, errors included.
func (s *pinSet) Keys(ctx context.Context) <-chan pinned { return s.stream(ctx) }

func (s *pinSet) stream(ctx context.Context) <-chan pinned {
	out := make(chan pinned)
	go func() {
		defer close(out)
		s.mu.RLock()
		defer s.mu.RUnlock()
		send := func(p pinned) bool {
			select {
			case out <- p:
				return true
			case <-ctx.Done():
				return false
			}
		}
		if err := s.index.Each(ctx, func(key string) bool { return send(pinned{key: key}) }); err != nil {
			send(pinned{err: err}) // want `call to send can block while s\.mu is held: func literal in \(\*lockedsend\.pinSet\)\.stream → send on out in a select without default; its receiver is the caller \(\*pinSet\)\.Keys returns it to, and a caller that calls \(\*pinSet\)\.Pin before it has read everything waits for s\.mu while this send waits for that caller$`
		}
	}()
	return out
}

// Names sends each name with the read lock held.
func (s *pinSet) Names(ctx context.Context) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		s.mu.RLock()
		defer s.mu.RUnlock()
		for _, n := range s.names {
			select {
			case out <- n: // want `send on out in a select without default can block while s\.mu is held: its receiver is the caller \(\*pinSet\)\.Names returns it to, and a caller that calls \(\*pinSet\)\.Pin before`
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// NamesCopied copies the names under the lock and sends after it is
// released: a caller that pins as it reads takes the lock at once.
func (s *pinSet) NamesCopied(ctx context.Context) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		s.mu.RLock()
		names := make([]string, 0, len(s.names))
		for _, n := range s.names {
			names = append(names, n)
		}
		s.mu.RUnlock()
		for _, n := range names {
			select {
			case out <- n:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// snapshotView is written only by its own refresh loop; what it exports
// reads. A caller reading Entries cannot call anything that waits for the
// write lock, and refresh waits only for the caller's next receive.
type snapshotView struct {
	mu      sync.RWMutex
	entries []string
	updates chan []string
}

func (v *snapshotView) refresh() {
	for e := range v.updates {
		v.mu.Lock()
		v.entries = e
		v.mu.Unlock()
	}
}

func (v *snapshotView) Len() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return len(v.entries)
}

func (v *snapshotView) Entries(ctx context.Context) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		v.mu.RLock()
		defer v.mu.RUnlock()
		for _, e := range v.entries {
			select {
			case out <- e: // want `send on out in a select without default can block while v\.mu is held: every goroutine that needs v\.mu for writing, and every reader after it, waits for the channel's receiver \[audit: no receiver of it is visible in this package\]`
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// NamesBuffered sizes its channel never to fill: the caller who pins as it
// reads waits for the lock only once the goroutine runs that far ahead.
func (s *pinSet) NamesBuffered(ctx context.Context) <-chan string {
	out := make(chan string, 1<<16)
	go func() {
		defer close(out)
		s.mu.RLock()
		defer s.mu.RUnlock()
		for _, n := range s.names {
			select {
			case out <- n: // want `send on out in a select without default can block while s\.mu is held: its receiver is the caller \(\*pinSet\)\.NamesBuffered returns it to, .*\[audit: its buffer holds 65536 values: the cycle closes only if the senders run that far ahead of the receiver\]`
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
