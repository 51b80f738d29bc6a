package lockedsend

import "sync"

// A func variable that a callback captures lives in a cell. When it is
// assigned once and only ever called, a call through it is a call of its
// literal, under whatever locks the caller holds.

type keyWalker interface {
	Walk(visit func(key int) bool) error
}

type replayLog struct {
	mu      sync.Mutex
	entries chan int
	keys    keyWalker
}

// The callback and the error report share emit: the report runs under
// r.mu, and so does emit's send.
func (r *replayLog) replaySharedEmitterBad() {
	r.mu.Lock()
	defer r.mu.Unlock()
	emit := func(key int) bool {
		r.entries <- key
		return true
	}
	if err := r.keys.Walk(func(key int) bool { return emit(key) }); err != nil {
		emit(-1) // want `call to emit can block while r\.mu is held: func literal in \(\*lockedsend\.replayLog\)\.replaySharedEmitterBad → send on r\.entries.*\[audit: `
	}
}

// emit may hold either of two literals: a func value like any other,
// whose callee is unknown and is not followed.
func (r *replayLog) replayEitherEmitterUnknown(dryRun bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	emit := func(key int) bool {
		r.entries <- key
		return true
	}
	if dryRun {
		emit = func(int) bool { return true }
	}
	if err := r.keys.Walk(func(key int) bool { return emit(key) }); err != nil {
		emit(-1)
	}
}

// Keys taken under the lock and emitted after it: nothing waits under r.mu.
func (r *replayLog) replayAfterUnlockOK() {
	var keys []int
	emit := func(key int) bool {
		r.entries <- key
		return true
	}
	r.mu.Lock()
	_ = r.keys.Walk(func(key int) bool {
		keys = append(keys, key)
		return true
	})
	r.mu.Unlock()
	for _, k := range keys {
		if !emit(k) {
			return
		}
	}
	_ = r.keys.Walk(func(key int) bool { return emit(key) })
}
