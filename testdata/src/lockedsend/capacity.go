package lockedsend

import "sync"

// errc has room for its one send: the capacity rule baresend uses.
func localRoomOK(mu *sync.Mutex) int {
	errc := make(chan int, 1)
	mu.Lock()
	errc <- 1
	mu.Unlock()
	return <-errc
}

func localNoRoomBad(mu *sync.Mutex) {
	c := make(chan int)
	go func() { <-c }()
	mu.Lock()
	c <- 1 // want `send on c can block while mu is held.*\[audit: `
	mu.Unlock()
}

// Putting back a token taken from the same channel cannot block.
func tokenReturnOK(mu *sync.Mutex, sem chan struct{}) {
	t := <-sem
	mu.Lock()
	sem <- t
	mu.Unlock()
}

// The drain before the send makes room: the channel keeps only the latest
// value, and its senders hold mu.
func latestValueOK(mu *sync.Mutex, updates []chan int, v int) {
	mu.Lock()
	defer mu.Unlock()
	for _, u := range updates {
		select {
		case <-u:
		default:
		}
		u <- v
	}
}

// sema is a semaphore filled with tokens where it is made: putting a token
// back cannot block.
type sema struct{ ch chan struct{} }

func newSema(n int) *sema {
	s := &sema{ch: make(chan struct{}, n)}
	for range n {
		s.ch <- struct{}{}
	}
	return s
}

func (s *sema) acquire() { <-s.ch }

func (s *sema) release() { s.ch <- struct{}{} }

func releaseUnderLockOK(mu *sync.Mutex, s *sema) {
	mu.Lock()
	defer mu.Unlock()
	s.release()
	_ = newSema(4)
}

// queue is made empty: a send on it waits for a consumer.
type queue struct{ ch chan int }

func newQueue(n int) *queue { return &queue{ch: make(chan int, n)} }

func (q *queue) take() int { return <-q.ch }

func queueUnderLockBad(mu *sync.Mutex, q *queue) {
	mu.Lock()
	defer mu.Unlock()
	q.ch <- 1 // want `send on q\.ch can block while mu is held.*\[audit: `
}

// The result of a wantConn is sent on once and closed: the one value fits.
type wantConn struct {
	mu     sync.Mutex
	done   bool
	result chan int
	notes  chan int
}

func newWantConn() *wantConn {
	return &wantConn{result: make(chan int, 1), notes: make(chan int, 1)}
}

func (w *wantConn) deliverOK(v int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.done = true
	w.result <- v
	close(w.result)
}

// notes is a result slot: made with each wantConn with room for one value,
// and sent on once per call, outside loops. The one value fits.
func (w *wantConn) noteOK(v int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.notes <- v
}

// A second value in the same call does not fit in the slot, and with two
// sends per call neither is a result slot any more.
func (w *wantConn) noteTwiceBad(v int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.notes <- v     // want `send on w\.notes can block while w\.mu is held.*\[audit: `
	w.notes <- v + 1 // want `send on w\.notes can block while w\.mu is held.*\[audit: `
}

// A new watcher's first event fits in the buffer made for it: nobody else
// holds the watcher yet.
type watcher struct{ events chan int }

type watchHub struct {
	mu       sync.Mutex
	watchers []*watcher
}

func (h *watchHub) watchOK(first int) *watcher {
	w := &watcher{events: make(chan int, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	w.events <- first // fits
	h.watchers = append(h.watchers, w)
	return w
}

// Once the watcher is shared, its buffer may be full.
func (h *watchHub) watchSharedBad(first int) *watcher {
	w := &watcher{events: make(chan int, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.watchers = append(h.watchers, w)
	w.events <- first // want `send on w\.events can block while h\.mu is held.*\[audit: `
	return w
}

// Two sends do not fit in a buffer of one.
func (h *watchHub) watchTwiceBad(first int) *watcher {
	w := &watcher{events: make(chan int, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	w.events <- first     // fits
	w.events <- first + 1 // want `send on w\.events can block while h\.mu is held.*\[audit: `
	return w
}

// The watcher is kept in a variable a closure captures after the send.
func (h *watchHub) watchCapturedOK(first int) (*watcher, func()) {
	w := &watcher{events: make(chan int, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	w.events <- first
	return w, func() { close(w.events) }
}

// Captured before the send, the watcher may be sent to by the closure.
func (h *watchHub) watchCapturedEarlyBad(first int) (*watcher, func()) {
	w := &watcher{events: make(chan int, 1)}
	f := func() { w.events <- 0 }
	h.mu.Lock()
	defer h.mu.Unlock()
	w.events <- first // want `send on w\.events can block while h\.mu is held.*\[audit: `
	return w, f
}

// slot's channel is made and filled under the lock, before anything else
// runs: the buffer is empty at the store, so the send finds room.
type slot struct {
	mu    sync.Mutex
	avail chan struct{}
}

func (s *slot) resetOK() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.avail = make(chan struct{}, 1)
	s.avail <- struct{}{}
}
