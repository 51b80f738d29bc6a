// Package dedupe holds one blocking send reached along many chains under
// one lock: one finding, at the first path by position, the others in
// its related information.
package dedupe

import "sync"

type ledger struct {
	mu    sync.Mutex
	other sync.Mutex
	ch    chan int
	n     int
}

func (l *ledger) count(v int) {
	l.mu.Lock()
	l.n += v
	l.mu.Unlock()
}

func (l *ledger) loop() {
	for v := range l.ch {
		l.count(v)
	}
}

func (l *ledger) post(v int) { l.ch <- v }

func (l *ledger) relay(v int) { l.post(v) }

func (l *ledger) firstBad(v int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.post(v) // want `call to l\.post can block while l\.mu is held: \(\*dedupe\.ledger\)\.post → send on l\.ch; its receiver \(\*ledger\)\.loop takes l\.mu too`
}

func (l *ledger) secondSameRoot(v int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.relay(v)
}

func (l *ledger) thirdSameRoot(v int) {
	l.mu.Lock()
	l.post(v)
	l.mu.Unlock()
}

func (l *ledger) fourthSameRoot(v int) {
	l.mu.Lock()
	l.post(v)
	l.mu.Unlock()
}

// A send of its own is a root of its own.
func (l *ledger) directBad(v int) {
	l.mu.Lock()
	l.ch <- v // want `send on l\.ch can block while l\.mu is held: its receiver \(\*ledger\)\.loop takes l\.mu too`
	l.mu.Unlock()
}

func (l *ledger) fifthSameRoot(v int) {
	l.mu.Lock()
	l.relay(v)
	l.mu.Unlock()
}

// Another lock, another root: loop does not need l.other.
func (l *ledger) otherLockAudit(v int) {
	l.other.Lock()
	l.post(v) // want `call to l\.post can block while l\.other is held.*\[audit: no receiver of it is seen to need the lock\]`
	l.other.Unlock()
}
