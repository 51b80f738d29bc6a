package baresend

import (
	"context"
	"sync"
)

// A garbage collector answers everyone waiting for a collection. Each
// waiter puts a fresh one-slot channel in the list and may give up on
// its context; the collector takes the whole list out under the lock and
// answers each slot once, into its room for one, whether it answers
// under the lock or after it, from its copy. A collector that answers
// the list but keeps it, or takes it out in another critical section
// than the one it read it in, can answer a slot twice.

type gcStats struct{ removed int }

type collector struct {
	mu      sync.Mutex
	waiters []chan gcStats
}

func (c *collector) wait(ctx context.Context) (gcStats, error) {
	wc := make(chan gcStats, 1)
	c.mu.Lock()
	c.waiters = append(c.waiters, wc)
	c.mu.Unlock()
	select {
	case st := <-wc:
		return st, nil
	case <-ctx.Done():
		return gcStats{}, ctx.Err()
	}
}

func (c *collector) answerUnderLockOK(st gcStats, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		for _, w := range c.waiters {
			close(w)
		}
		c.waiters = nil
		return
	}
	for _, w := range c.waiters {
		w <- st // ok: a fresh slot, answered once before the list is emptied
	}
	c.waiters = nil
}

func (c *collector) answerAfterSwapOK(st gcStats) {
	c.mu.Lock()
	ws := c.waiters
	c.waiters = nil
	c.mu.Unlock()
	for _, w := range ws {
		w <- st // ok: the list was taken out whole, under the lock
	}
}

// lazyCollector answers its waiters but leaves them in the list.
type lazyCollector struct {
	mu      sync.Mutex
	waiters []chan gcStats
}

func (c *lazyCollector) wait(ctx context.Context) (gcStats, error) {
	wc := make(chan gcStats, 1)
	c.mu.Lock()
	c.waiters = append(c.waiters, wc)
	c.mu.Unlock()
	select {
	case st := <-wc:
		return st, nil
	case <-ctx.Done():
		return gcStats{}, ctx.Err()
	}
}

func (c *lazyCollector) answerKeepBad(st gcStats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range c.waiters {
		w <- st // want `send on w \(chan gcStats, cap 1\) can block forever: its receiver \(\*lazyCollector\)\.wait can stop receiving`
	}
}

func (c *lazyCollector) reset() {
	c.mu.Lock()
	c.waiters = nil
	c.mu.Unlock()
}

// splitCollector reads the list in one critical section and empties it
// in another: a waiter's slot can be answered by two collections.
type splitCollector struct {
	mu      sync.Mutex
	waiters []chan gcStats
}

func (c *splitCollector) wait(ctx context.Context) (gcStats, error) {
	wc := make(chan gcStats, 1)
	c.mu.Lock()
	c.waiters = append(c.waiters, wc)
	c.mu.Unlock()
	select {
	case st := <-wc:
		return st, nil
	case <-ctx.Done():
		return gcStats{}, ctx.Err()
	}
}

func (c *splitCollector) answerSplitBad(st gcStats) {
	c.mu.Lock()
	ws := c.waiters
	c.mu.Unlock()
	for _, w := range ws {
		w <- st // want `send on w \(chan gcStats, cap 1\) can block forever: its receiver \(\*splitCollector\)\.wait can stop receiving`
	}
	c.mu.Lock()
	c.waiters = nil
	c.mu.Unlock()
}

// pickyCollector empties the list only after a collection that removed
// something: the other answers leave their slots in it.
type pickyCollector struct {
	mu      sync.Mutex
	waiters []chan gcStats
}

func (c *pickyCollector) wait(ctx context.Context) (gcStats, error) {
	wc := make(chan gcStats, 1)
	c.mu.Lock()
	c.waiters = append(c.waiters, wc)
	c.mu.Unlock()
	select {
	case st := <-wc:
		return st, nil
	case <-ctx.Done():
		return gcStats{}, ctx.Err()
	}
}

func (c *pickyCollector) answerSometimesBad(st gcStats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range c.waiters {
		w <- st // want `send on w \(chan gcStats, cap 1\) can block forever: its receiver \(\*pickyCollector\)\.wait can stop receiving`
	}
	if st.removed > 0 {
		c.waiters = nil
	}
}

// A track answers everyone subscribing before it is published; a
// subscriber that gives up takes its slot out of the list again, under
// the lock, so no slot it leaves behind is answered.
type track struct {
	mu      sync.Mutex
	waiters []chan gcStats
}

func (t *track) subscribe(ctx context.Context) (gcStats, error) {
	wc := make(chan gcStats, 1)
	t.mu.Lock()
	t.waiters = append(t.waiters, wc)
	t.mu.Unlock()
	select {
	case st := <-wc:
		return st, nil
	case <-ctx.Done():
		t.mu.Lock()
		t.removeWaiterLocked(wc)
		t.mu.Unlock()
		return gcStats{}, ctx.Err()
	}
}

func (t *track) removeWaiterLocked(wc chan gcStats) {
	for i, w := range t.waiters {
		if w == wc {
			t.waiters = append(t.waiters[:i], t.waiters[i+1:]...)
			return
		}
	}
}

func (t *track) activateOK(st gcStats) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, w := range t.waiters {
		w <- st // ok: a waiter that gave up took its slot out; the rest are answered once
	}
	t.waiters = nil
}

// A relay whose subscribers, giving up, put the relay's spare channels
// in their place: those were never made for one answer each.
type spareRelay struct {
	mu      sync.Mutex
	waiters []chan gcStats
	spare   []chan gcStats
}

func (r *spareRelay) subscribe(ctx context.Context) (gcStats, error) {
	wc := make(chan gcStats, 1)
	r.mu.Lock()
	r.waiters = append(r.waiters, wc)
	r.mu.Unlock()
	select {
	case st := <-wc:
		return st, nil
	case <-ctx.Done():
		r.mu.Lock()
		r.waiters = append(r.waiters[:0], r.spare...)
		r.mu.Unlock()
		return gcStats{}, ctx.Err()
	}
}

func (r *spareRelay) activateBad(st gcStats) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range r.waiters {
		w <- st // want `send on w \(chan gcStats, cap 1\) can block forever`
	}
	r.waiters = nil
}
