package baresend

import (
	"sync"

	"baresend/closerkit"
)

// A receiver that its shutdown stops only after waiting for the
// goroutines that send to it outlives them: it cannot be the receiver
// that left one of their sends waiting. Whether a sender can be started
// after that wait is not shown, so these go to the audit tier; a stop
// signalled before the wait is still a finding.

// resultSink's workers send their results to one loop. Close waits for
// every worker before it closes done, the loop's one way out. Audited.
type resultSink struct {
	results chan int
	done    chan struct{}
	workers sync.WaitGroup
}

func newResultSink(n int) *resultSink {
	s := &resultSink{results: make(chan int), done: make(chan struct{})}
	for range n {
		s.workers.Add(1)
		go s.work()
	}
	go s.loop()
	return s
}

func (s *resultSink) work() {
	defer s.workers.Done()
	s.results <- compute() // want `send on s\.results .*\[audit: its receiver is stopped only after \(\*resultSink\)\.Close waits for s\.workers, which counts every goroutine that makes this send; a sender started after that wait is not ruled out\]`
}

func (s *resultSink) loop() {
	for {
		select {
		case r := <-s.results:
			keep(r)
		case <-s.done:
			return
		}
	}
}

func (s *resultSink) Close() {
	s.workers.Wait()
	close(s.done)
}

func compute() int { return 1 }

func keep(int) {}

// hastySink closes done before it waits for its workers: the loop may be
// gone while a worker still sends. Reported.
type hastySink struct {
	results chan int
	done    chan struct{}
	workers sync.WaitGroup
}

func newHastySink(n int) *hastySink {
	s := &hastySink{results: make(chan int), done: make(chan struct{})}
	for range n {
		s.workers.Add(1)
		go s.work()
	}
	go s.loop()
	return s
}

func (s *hastySink) work() {
	defer s.workers.Done()
	s.results <- compute() // want `send on s\.results \(chan int, unbuffered\) can block forever: its receiver \(\*hastySink\)\.loop can stop receiving`
}

func (s *hastySink) loop() {
	for {
		select {
		case r := <-s.results:
			keep(r)
		case <-s.done:
			return
		}
	}
}

func (s *hastySink) Close() {
	close(s.done)
	s.workers.Wait()
}

// pickySink's loop also returns when a result is bad, without any
// signal: the wait orders its stop, not that return. Reported.
type pickySink struct {
	results chan int
	done    chan struct{}
	workers sync.WaitGroup
}

func newPickySink(n int) *pickySink {
	s := &pickySink{results: make(chan int), done: make(chan struct{})}
	for range n {
		s.workers.Add(1)
		go s.work()
	}
	go s.loop()
	return s
}

func (s *pickySink) work() {
	defer s.workers.Done()
	s.results <- compute() // want `send on s\.results \(chan int, unbuffered\) can block forever: its receiver \(\*pickySink\)\.loop can stop receiving`
}

func (s *pickySink) loop() {
	for {
		select {
		case r := <-s.results:
			if r < 0 {
				return
			}
			keep(r)
		case <-s.done:
			return
		}
	}
}

func (s *pickySink) Close() {
	s.workers.Wait()
	close(s.done)
}

// store is built the way a database keeps its goroutines: each is handed
// a closer and marks it done on its way out; the shutdown signals a
// closer and waits for its goroutines. The writer publishes what it
// wrote to the publisher's loop, which stops on its own closer. close
// waits for the writer before it stops the publisher, but a failed open
// signals both at once, and a writer started by Flush is counted by no
// closer: audited, with what is not shown.
type store struct {
	writes  *closerkit.Closer
	pub     *closerkit.Closer
	updates chan int
	reqs    chan int
}

func openStore() (*store, error) {
	s := &store{updates: make(chan int, 100), reqs: make(chan int, 100)}
	s.writes = closerkit.New(1)
	go s.doWrites(s.writes)
	s.pub = closerkit.New(1)
	go s.listen(s.pub)
	if err := check(); err != nil {
		s.cleanup()
		return nil, err
	}
	return s, nil
}

func check() error { return nil }

func (s *store) doWrites(lc *closerkit.Closer) {
	defer lc.Done()
	for {
		select {
		case r := <-s.reqs:
			s.write(r)
		case <-lc.HasBeenClosed():
			return
		}
	}
}

func (s *store) write(r int) {
	s.updates <- r // want `send on s\.updates .*\[audit: its receiver is stopped after \(\*store\)\.close waits for s\.writes, which counts a goroutine that makes this send; other stops or senders are not shown to be ordered by that wait\]`
}

func (s *store) Flush(r int) {
	go s.write(r)
}

func (s *store) listen(c *closerkit.Closer) {
	defer c.Done()
	for {
		select {
		case <-c.HasBeenClosed():
			return
		case u := <-s.updates:
			keep(u)
		}
	}
}

func (s *store) close() {
	s.writes.SignalAndWait()
	s.pub.SignalAndWait()
}

func (s *store) Close() { s.close() }

func (s *store) cleanup() {
	if s.writes != nil {
		s.writes.Signal()
	}
	if s.pub != nil {
		s.pub.Signal()
	}
}

// threshold's loop stops on the closer kept beside its channel, which
// only halt signals; halt is called by shut after it waited for the
// only goroutine that records. Audited.
type threshold struct {
	closer *closerkit.Closer
	sizes  chan int
}

type engine struct {
	writer *closerkit.Closer
	th     *threshold
	in     chan int
}

func newEngine() *engine {
	e := &engine{in: make(chan int), th: &threshold{closer: closerkit.New(1), sizes: make(chan int, 10)}}
	go e.th.listen()
	e.writer = closerkit.New(1)
	go e.run(e.writer)
	return e
}

func (t *threshold) update(n int) {
	t.sizes <- n // want `send on t\.sizes .*\[audit: its receiver is stopped only after \(\*engine\)\.shut waits for e\.writer, which counts every goroutine that makes this send; a sender started after that wait is not ruled out\]`
}

func (t *threshold) halt() { t.closer.SignalAndWait() }

func (t *threshold) listen() {
	defer t.closer.Done()
	for {
		select {
		case <-t.closer.HasBeenClosed():
			return
		case n := <-t.sizes:
			keep(n)
		}
	}
}

func (e *engine) run(c *closerkit.Closer) {
	defer c.Done()
	for {
		select {
		case n := <-e.in:
			e.th.update(n)
		case <-c.HasBeenClosed():
			return
		}
	}
}

func (e *engine) shut() {
	e.writer.SignalAndWait()
	e.th.halt()
}

func (e *engine) Shut() { e.shut() }

// rushedEngine stops its threshold's loop before it waits for the
// writer. Reported.
type rushedEngine struct {
	writer *closerkit.Closer
	th     *rushedThreshold
	in     chan int
}

type rushedThreshold struct {
	closer *closerkit.Closer
	sizes  chan int
}

func newRushedEngine() *rushedEngine {
	e := &rushedEngine{in: make(chan int), th: &rushedThreshold{closer: closerkit.New(1), sizes: make(chan int, 10)}}
	go e.th.listen()
	e.writer = closerkit.New(1)
	go e.run(e.writer)
	return e
}

func (t *rushedThreshold) update(n int) {
	t.sizes <- n // want `send on t\.sizes \(chan int, cap 10\) can block forever: its receiver \(\*rushedThreshold\)\.listen can stop receiving`
}

func (t *rushedThreshold) listen() {
	defer t.closer.Done()
	for {
		select {
		case <-t.closer.HasBeenClosed():
			return
		case n := <-t.sizes:
			keep(n)
		}
	}
}

func (e *rushedEngine) run(c *closerkit.Closer) {
	defer c.Done()
	for {
		select {
		case n := <-e.in:
			e.th.update(n)
		case <-c.HasBeenClosed():
			return
		}
	}
}

func (e *rushedEngine) Shut() {
	e.th.closer.SignalAndWait()
	e.writer.SignalAndWait()
}

// waitedForOthers waits for its helpers, which never send, before it
// stops the loop; the sender is started by the caller and counted by no
// one. Reported.
type waitedForOthers struct {
	results chan int
	done    chan struct{}
	helpers sync.WaitGroup
}

func newWaitedForOthers() *waitedForOthers {
	s := &waitedForOthers{results: make(chan int), done: make(chan struct{})}
	s.helpers.Add(1)
	go s.help()
	go s.loop()
	return s
}

func (s *waitedForOthers) help() { defer s.helpers.Done() }

func (s *waitedForOthers) Submit(r int) {
	s.results <- r // want `send on s\.results \(chan int, unbuffered\) can block forever: its receiver \(\*waitedForOthers\)\.loop can stop receiving`
}

func (s *waitedForOthers) loop() {
	for {
		select {
		case r := <-s.results:
			keep(r)
		case <-s.done:
			return
		}
	}
}

func (s *waitedForOthers) Close() {
	s.helpers.Wait()
	close(s.done)
}
