package baresend

import (
	"errors"
	"time"
)

// A database meters itself on a goroutine until Close asks it to stop,
// handing it a channel for the last error. The meter stops only once it
// has taken that request: if a failed reading ends its loop first, it
// waits for the request before it returns. Close's send cannot find it
// gone, so only a second Close could block (audit). A meter that returns
// on a failed reading without waiting leaves Close blocked for good; and
// a worker whose requests channel carries its stop among the work it is
// there for strands the work sent after the stop.

type meteredDB struct {
	quit  chan chan error
	stats func() error
}

func openMeteredDB(stats func() error) *meteredDB {
	db := &meteredDB{quit: make(chan chan error), stats: stats}
	go db.meter()
	return db
}

func (db *meteredDB) Close() error {
	errc := make(chan error)
	db.quit <- errc // want `send on db\.quit \(chan chan error, unbuffered\) can block forever: .*\[audit: its receiver \(\*meteredDB\)\.meter stops only once it takes one value from it: a send blocks only after another one for the same run\]$`
	return <-errc
}

func (db *meteredDB) meter() {
	var (
		errc chan error
		err  error
	)
	for errc == nil && err == nil {
		select {
		case errc = <-db.quit:
		case <-time.After(time.Second):
			err = db.stats()
		}
	}
	if errc == nil {
		errc = <-db.quit // a failed reading: wait for Close
	}
	errc <- err // want `send on errc \(chan error\) can block forever: .*\[audit: no receiver of it is visible in this package\]$`
}

type quitterDB struct {
	quit  chan chan error
	stats func() error
}

func openQuitterDB(stats func() error) *quitterDB {
	db := &quitterDB{quit: make(chan chan error), stats: stats}
	go db.meter()
	return db
}

func (db *quitterDB) CloseBad() error {
	errc := make(chan error)
	db.quit <- errc // want `send on db\.quit \(chan chan error, unbuffered\) can block forever: its receiver \(\*quitterDB\)\.meter can stop receiving`
	return <-errc
}

func (db *quitterDB) meter() {
	for {
		select {
		case errc := <-db.quit:
			errc <- nil
			return
		case <-time.After(time.Second):
			if db.stats() != nil {
				return // gone without waiting for Close
			}
		}
	}
}

type job struct {
	stop bool
	run  func()
}

type jobWorker struct{ jobs chan job }

func newJobWorker() *jobWorker {
	w := &jobWorker{jobs: make(chan job)}
	go w.work()
	return w
}

func (w *jobWorker) SubmitBad(run func()) {
	w.jobs <- job{run: run} // want `send on w\.jobs \(chan job, unbuffered\) can block forever: its receiver \(\*jobWorker\)\.work can stop receiving`
}

func (w *jobWorker) Stop() { w.jobs <- job{stop: true} } // want `send on w\.jobs \(chan job, unbuffered\) can block forever: its receiver \(\*jobWorker\)\.work can stop receiving`

func (w *jobWorker) work() {
	for j := range w.jobs {
		if j.stop {
			return
		}
		j.run()
	}
}

// A hardware wallet derives accounts on a goroutine until Close asks it to
// stop. Its loop ends when the request came or a derivation failed, and
// only the failure is tested after the loop: a path that leaves with the
// error set waits for the request there, and one that leaves without it
// took the request in the loop. Close's send finds the deriver on every
// path (audit, as above). A deriver that tests a different error after
// its loop can leave with the request untaken.

type derivingWallet struct {
	quit   chan chan error
	derive func() error
}

func openDerivingWallet(derive func() error) *derivingWallet {
	w := &derivingWallet{quit: make(chan chan error), derive: derive}
	go w.selfDerive()
	return w
}

func (w *derivingWallet) Close() error {
	errc := make(chan error)
	w.quit <- errc // want `send on w\.quit \(chan chan error, unbuffered\) can block forever: .*\[audit: its receiver \(\*derivingWallet\)\.selfDerive stops only once it takes one value from it: a send blocks only after another one for the same run\]$`
	return <-errc
}

func (w *derivingWallet) selfDerive() {
	var (
		errc chan error
		err  error
	)
	for errc == nil && err == nil {
		select {
		case errc = <-w.quit:
			continue
		case <-time.After(time.Second):
		}
		err = w.derive()
	}
	if err != nil {
		errc = <-w.quit // a failed derivation: wait for Close
	}
	errc <- err // want `send on errc \(chan error\) can block forever: .*\[audit: no receiver of it is visible in this package\]$`
}

type checkedWallet struct {
	quit   chan chan error
	derive func() error
	check  func() error
}

func openCheckedWallet(derive, check func() error) *checkedWallet {
	w := &checkedWallet{quit: make(chan chan error), derive: derive, check: check}
	go w.selfDerive()
	return w
}

func (w *checkedWallet) CloseBad() error {
	errc := make(chan error)
	w.quit <- errc // want `send on w\.quit \(chan chan error, unbuffered\) can block forever: its receiver \(\*checkedWallet\)\.selfDerive can stop receiving`
	return <-errc
}

func (w *checkedWallet) selfDerive() {
	var (
		errc chan error
		err  error
	)
	for errc == nil && err == nil {
		select {
		case errc = <-w.quit:
			continue
		case <-time.After(time.Second):
		}
		err = w.derive()
	}
	if checkErr := w.check(); checkErr != nil {
		errc = <-w.quit // waits only when the check fails too
	}
	if errc != nil {
		errc <- err // want `send on errc \(chan error\) can block forever: .*\[audit: no receiver of it is visible in this package\]$`
	}
}

// A header syncer runs sync cycles until Terminate asks it to stop. A
// cycle that takes the request itself answers it and returns
// errStopped, which no other path of the cycle returns, so the loop that
// leaves on that error has taken the request too; every other error
// ends the loop only after it waits for the request. A cycle that also
// returns errStopped when its peer set runs dry lets the loop leave with
// the request untaken.

var (
	errStopped = errors.New("stopped")
	errRestart = errors.New("restart")
)

type headerSyncer struct {
	terminate chan chan error
	pending   []int
	heads     chan int
	peers     func() int
}

func startHeaderSyncer(peers func() int) *headerSyncer {
	s := &headerSyncer{terminate: make(chan chan error), heads: make(chan int), peers: peers}
	go s.loop()
	return s
}

func (s *headerSyncer) Terminate() error {
	errc := make(chan error)
	s.terminate <- errc // want `send on s\.terminate \(chan chan error, unbuffered\) can block forever: .*\[audit: its receiver \(\*headerSyncer\)\.loop stops only once it takes one value from it: a send blocks only after another one for the same run\]$`
	return <-errc
}

func (s *headerSyncer) loop() {
	select {
	case errc := <-s.terminate:
		errc <- nil // stopped before the first head
		return
	case <-s.heads:
	}
	for {
		err := s.cycle()
		switch {
		case err == errRestart:
			continue
		case err == errStopped:
			return // the cycle took the request
		default:
			errc := <-s.terminate
			errc <- err // want `send on errc \(chan error\) can block forever: .*\[audit: no receiver of it is visible in this package\]$`
			return
		}
	}
}

func (s *headerSyncer) cycle() error {
	s.pending = make([]int, 0, 8)
	defer func() { s.pending = nil }() // its returns now go through result variables
	for {
		select {
		case errc := <-s.terminate:
			errc <- nil
			return errStopped
		case h := <-s.heads:
			if h < 0 {
				return errRestart
			}
		}
	}
}

type drySyncer struct {
	terminate chan chan error
	pending   []int
	heads     chan int
	peers     func() int
}

func startDrySyncer(peers func() int) *drySyncer {
	s := &drySyncer{terminate: make(chan chan error), heads: make(chan int), peers: peers}
	go s.loop()
	return s
}

func (s *drySyncer) TerminateBad() error {
	errc := make(chan error)
	s.terminate <- errc // want `send on s\.terminate \(chan chan error, unbuffered\) can block forever: its receiver \(\*drySyncer\)\.loop can stop receiving`
	return <-errc
}

func (s *drySyncer) loop() {
	select {
	case errc := <-s.terminate:
		errc <- nil // stopped before the first head
		return
	case <-s.heads:
	}
	for {
		err := s.cycle()
		switch {
		case err == errRestart:
			continue
		case err == errStopped:
			return
		default:
			errc := <-s.terminate
			errc <- err // want `send on errc \(chan error\) can block forever: .*\[audit: no receiver of it is visible in this package\]$`
			return
		}
	}
}

func (s *drySyncer) cycle() error {
	s.pending = make([]int, 0, 8)
	defer func() { s.pending = nil }() // its returns now go through result variables
	for {
		select {
		case errc := <-s.terminate:
			errc <- nil
			return errStopped
		case h := <-s.heads:
			if s.peers() == 0 {
				return errStopped // not asked to: the loop leaves with the request untaken
			}
			if h < 0 {
				return errRestart
			}
		}
	}
}
