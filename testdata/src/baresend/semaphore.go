package baresend

import (
	"sync"

	"baresend/gokit"
)

// A write loop lets one batch be written while it gathers the next: a
// one-slot semaphore that each batch's writer gives back when it is done.

type writeRequest struct{ key string }

func writeBatch([]*writeRequest) error { return nil }

func writeLoopOK(in <-chan *writeRequest, closed <-chan struct{}) {
	pending := make(chan struct{}, 1)
	write := func(reqs []*writeRequest) {
		_ = writeBatch(reqs)
		<-pending
	}
	var reqs []*writeRequest
	for {
		select {
		case r := <-in:
			reqs = append(reqs, r)
		case <-closed:
			pending <- struct{}{} // ok: waits for the last writer to give its token back
			write(reqs)
			return
		}
		if len(reqs) >= 100 {
			pending <- struct{}{} // ok: as above
			go write(reqs)
			reqs = nil
			continue
		}
		select {
		case pending <- struct{}{}: // ok: as above
			go write(reqs)
			reqs = nil
		default:
		}
	}
}

// writeLoopLeakyBad's writer keeps its token when the write fails: the
// next acquire then waits for ever.
func writeLoopLeakyBad(in <-chan *writeRequest) {
	pending := make(chan struct{}, 1)
	write := func(reqs []*writeRequest) {
		if err := writeBatch(reqs); err != nil {
			return
		}
		<-pending
	}
	for r := range in {
		pending <- struct{}{} // want `send on pending \(chan struct\{\}, cap 1\) can block forever`
		go write([]*writeRequest{r})
	}
}

// writeLoopTwiceBad takes a second token before it starts the writer that
// gives the first back.
func writeLoopTwiceBad(in <-chan *writeRequest) {
	pending := make(chan struct{}, 1)
	write := func(reqs []*writeRequest) {
		_ = writeBatch(reqs)
		<-pending
	}
	for r := range in {
		pending <- struct{}{} // want `send on pending \(chan struct\{\}, cap 1\) can block forever`
		pending <- struct{}{} // want `send on pending \(chan struct\{\}, cap 1\) can block forever`
		go write([]*writeRequest{r})
	}
}

// A parallel upload cycles a fixed set of buffers through a channel: each
// part's goroutine starts with a buffer taken from it and gives that
// buffer back.
func uploadPartsOK(parts [][]byte, threads int, upload func([]byte) error) {
	bufs := make(chan []byte, threads)
	for i := 0; i < threads; i++ {
		bufs <- make([]byte, 1<<20) // ok: threads buffers fill threads slots
	}
	for _, part := range parts {
		buf := <-bufs
		copy(buf, part)
		go func() {
			if upload(buf) != nil {
				return
			}
			bufs <- buf // ok: gives back the buffer taken for it
		}()
	}
}

// uploadPartsUntakenBad starts the goroutine for a small part without
// taking a buffer, and the goroutine still puts one back.
func uploadPartsUntakenBad(parts [][]byte, threads int, upload func([]byte) error) {
	bufs := make(chan []byte, threads)
	for i := 0; i < threads; i++ {
		bufs <- make([]byte, 1<<20)
	}
	for _, part := range parts {
		var buf []byte
		if len(part) > 1<<10 {
			buf = <-bufs
		}
		go func() {
			_ = upload(buf)
			bufs <- make([]byte, 1<<20) // want `send on bufs \(chan \[\]byte, cap threads\) can block forever`
		}()
	}
}

type peerConn struct{ id string }

func pushTo(*peerConn) error { return nil }

// pushAllOK bounds a fan-out of pushes with a counting semaphore: each
// push goroutine defers giving its token back, so the acquire waits only
// for a push in flight to end.
func pushAllOK(conns []*peerConn) {
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, c := range conns {
		sem <- struct{}{} // ok: every push releases its token on the way out
		wg.Add(1)
		go func(c *peerConn) {
			defer wg.Done()
			defer func() { <-sem }()
			_ = pushTo(c)
		}(c)
	}
	wg.Wait()
}

// pushAllLeakyBad defers the release only once the push has begun: a
// goroutine that gives up first keeps its token, and after eight of them
// the acquire waits for ever.
func pushAllLeakyBad(conns []*peerConn) {
	sem := make(chan struct{}, 8)
	for _, c := range conns {
		sem <- struct{}{} // want `send on sem \(chan struct\{\}, cap 8\) can block forever`
		go func(c *peerConn) {
			if c.id == "" {
				return
			}
			defer func() { <-sem }()
			_ = pushTo(c)
		}(c)
	}
}

// pushAllSafeOK bounds its pushes by a number of workers its caller
// picks, and hands each push to a helper of another package that runs it
// on a goroutine of its own: the closure defers giving its token back,
// so the acquire still waits only for a push in flight.
func pushAllSafeOK(conns []*peerConn, workers int) {
	sem := make(chan struct{}, workers)
	for _, c := range conns {
		sem <- struct{}{} // ok: every push the helper runs releases its token
		gokit.GoSafe(func() {
			defer func() { <-sem }()
			_ = pushTo(c)
		})
	}
}

// pushAllSafeLeakyBad gives the token back only after a push that
// started: a push skipped keeps it.
func pushAllSafeLeakyBad(conns []*peerConn, workers int) {
	sem := make(chan struct{}, workers)
	for _, c := range conns {
		sem <- struct{}{} // want `send on sem \(chan struct\{\}, cap workers\) can block forever`
		gokit.GoSafe(func() {
			if c.id == "" {
				return
			}
			defer func() { <-sem }()
			_ = pushTo(c)
		})
	}
}

// A node filter checks candidates on a bounded number of goroutines: each
// takes a slot before it starts and gives it back when done. The pool is
// filled to its capacity where it is made, so giving a slot back always
// finds room. A pool filled short of its capacity holds no promise: a
// slot given back that was never taken can find it full.
type nodeFilter struct {
	slots  chan struct{}
	passed chan string
}

func newNodeFilter(workers int, next func() (string, bool), check func(string) bool) *nodeFilter {
	f := &nodeFilter{slots: make(chan struct{}, workers+1), passed: make(chan string)}
	for range cap(f.slots) {
		f.slots <- struct{}{}
	}
	go f.run(next, check)
	return f
}

func (f *nodeFilter) run(next func() (string, bool), check func(string) bool) {
	for {
		n, ok := next()
		if !ok {
			return
		}
		<-f.slots
		go func() {
			if check(n) {
				f.passed <- n
			}
			f.slots <- struct{}{} // ok: gives back the slot it took from a full pool
		}()
	}
}

// Next waits for the next node that passed.
func (f *nodeFilter) Next() string { return <-f.passed }

// shortFilter fills its pool with one slot fewer than it holds.
type shortFilter struct{ slots chan struct{} }

func newShortFilter(workers int, next func() (string, bool), check func(string) bool) *shortFilter {
	f := &shortFilter{slots: make(chan struct{}, workers+1)}
	for range workers {
		f.slots <- struct{}{} // want `send on f\.slots .*\[audit: `
	}
	go f.run(next, check)
	return f
}

func (f *shortFilter) run(next func() (string, bool), check func(string) bool) {
	for {
		n, ok := next()
		if !ok {
			return
		}
		<-f.slots
		go func() {
			check(n)
			f.slots <- struct{}{} // want `send on f\.slots \(chan struct\{\}, cap workers \+ 1\) can block forever: its receiver \(\*shortFilter\)\.run can stop receiving`
		}()
	}
}

// An import graph builder reads packages on many goroutines, at most
// twenty at a time: each reader takes a place of sema before its I/O and
// gives it back right after, on every path. A send on sema waits for a
// reader's I/O, never for a receiver that is gone.
func buildGraph(paths []string, load func(string) error) {
	sema := make(chan int, 20)
	var wg sync.WaitGroup
	for _, path := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sema <- 1
			err := load(path)
			<-sema
			if err != nil {
				return
			}
			sema <- 1
			_ = load(path + "/internal")
			<-sema
		}()
	}
	wg.Wait()
}

// buildGraphLeaky keeps its place when the load fails: twenty failures
// and every later reader waits for good.
func buildGraphLeaky(paths []string, load func(string) error) {
	sema := make(chan int, 20)
	for _, path := range paths {
		go func() {
			sema <- 1 // want `send on sema \(chan int, cap 20\) can block forever`
			if err := load(path); err != nil {
				return
			}
			<-sema
		}()
	}
}
