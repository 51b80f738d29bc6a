package baresend

// A receiver whose only way to give up is a stop channel that shipped code
// never closes keeps receiving for as long as the program runs: a send
// that shipped code makes and that waits for it proves nothing. Such a
// send is audited. The stop
// counts as soon as shipped code can fire it: an exported Close, an
// unexported helper that an exported method calls or starts, a method
// value, an interface call that may reach it, an exported function handed
// the channel.

// testOnlyLoop is closed only by close, which only the test file calls.
// The package invokes another interface's close, which testOnlyLoop does
// not implement.
type testOnlyLoop struct {
	closeCh   chan struct{}
	requestCh chan int
}

func newTestOnlyLoop() *testOnlyLoop {
	l := &testOnlyLoop{closeCh: make(chan struct{}), requestCh: make(chan int)}
	go l.run()
	return l
}

func (l *testOnlyLoop) run() {
	for {
		select {
		case <-l.closeCh:
			return
		case r := <-l.requestCh:
			_ = r
		}
	}
}

func (l *testOnlyLoop) close() { close(l.closeCh) }

func (l *testOnlyLoop) RequestTestStopAudit(r int) {
	l.requestCh <- r // want `send on l.requestCh .*\[audit: its receiver stops only when test code closes its stop channel\]`
}

// tracker is the interface whose close the package calls.
type tracker interface {
	close()
	flush()
}

type nopTracker struct{}

func (nopTracker) close() {}
func (nopTracker) flush() {}

func closeTracker(t tracker) { t.close() }

func CloseDefaultTracker() { closeTracker(nopTracker{}) }

// deadLoop is stopped by halt, which only shutdown calls, which nothing
// calls.
type deadLoop struct {
	quit chan struct{}
	in   chan int
}

func newDeadLoop() *deadLoop {
	l := &deadLoop{quit: make(chan struct{}), in: make(chan int)}
	go l.run()
	return l
}

func (l *deadLoop) run() {
	for {
		select {
		case <-l.quit:
			return
		case v := <-l.in:
			_ = v
		}
	}
}

func (l *deadLoop) halt()     { close(l.quit) }
func (l *deadLoop) shutdown() { l.halt() }

func (l *deadLoop) PutDeadStopAudit(v int) {
	l.in <- v // want `send on l.in .*\[audit: its receiver stops only when test code closes its stop channel\]`
}

// closedLoop has an exported Close.
type closedLoop struct {
	closeCh   chan struct{}
	requestCh chan int
}

func newClosedLoop() *closedLoop {
	l := &closedLoop{closeCh: make(chan struct{}), requestCh: make(chan int)}
	go l.run()
	return l
}

func (l *closedLoop) run() {
	for {
		select {
		case <-l.closeCh:
			return
		case r := <-l.requestCh:
			_ = r
		}
	}
}

func (l *closedLoop) Close() { close(l.closeCh) }

func (l *closedLoop) RequestClosedBad(r int) {
	l.requestCh <- r // want `send on l.requestCh \(chan int, unbuffered\) can block forever: its receiver \(\*closedLoop\).run can stop receiving`
}

// helperLoop's stop is unexported, called from an exported method.
type helperLoop struct {
	done chan struct{}
	in   chan int
}

func newHelperLoop() *helperLoop {
	l := &helperLoop{done: make(chan struct{}), in: make(chan int)}
	go l.run()
	return l
}

func (l *helperLoop) run() {
	for {
		select {
		case <-l.done:
			return
		case v := <-l.in:
			_ = v
		}
	}
}

func (l *helperLoop) stop()     { close(l.done) }
func (l *helperLoop) Shutdown() { l.stop() }

func (l *helperLoop) PutHelperStopBad(v int) {
	l.in <- v // want `send on l.in \(chan int, unbuffered\) can block forever: its receiver \(\*helperLoop\).run can stop receiving`
}

// startedLoop's stop runs on a goroutine that an exported method starts,
// through an unexported helper.
type startedLoop struct {
	done chan struct{}
	in   chan int
}

func newStartedLoop() *startedLoop {
	l := &startedLoop{done: make(chan struct{}), in: make(chan int)}
	go l.run()
	return l
}

func (l *startedLoop) run() {
	for {
		select {
		case <-l.done:
			return
		case v := <-l.in:
			_ = v
		}
	}
}

func (l *startedLoop) stop()   { close(l.done) }
func (l *startedLoop) expire() { go l.stop() }
func (l *startedLoop) Expire() { l.expire() }

func (l *startedLoop) PutStartedStopBad(v int) {
	l.in <- v // want `send on l.in \(chan int, unbuffered\) can block forever: its receiver \(\*startedLoop\).run can stop receiving`
}

// valueLoop's stop is kept as a method value, called whenever its holder
// likes.
type valueLoop struct {
	done chan struct{}
	in   chan int
}

var cleanups []func()

func newValueLoop() *valueLoop {
	l := &valueLoop{done: make(chan struct{}), in: make(chan int)}
	go l.run()
	cleanups = append(cleanups, l.stop)
	return l
}

func (l *valueLoop) run() {
	for {
		select {
		case <-l.done:
			return
		case v := <-l.in:
			_ = v
		}
	}
}

func (l *valueLoop) stop() { close(l.done) }

func (l *valueLoop) PutValueStopBad(v int) {
	l.in <- v // want `send on l.in \(chan int, unbuffered\) can block forever: its receiver \(\*valueLoop\).run can stop receiving`
}

// ifaceLoop's stop satisfies stopper, whose stop the package calls.
type ifaceLoop struct {
	done chan struct{}
	in   chan int
}

type stopper interface{ stop() }

func newIfaceLoop() *ifaceLoop {
	l := &ifaceLoop{done: make(chan struct{}), in: make(chan int)}
	go l.run()
	return l
}

func (l *ifaceLoop) run() {
	for {
		select {
		case <-l.done:
			return
		case v := <-l.in:
			_ = v
		}
	}
}

func (l *ifaceLoop) stop() { close(l.done) }

func stopAll(ss []stopper) {
	for _, s := range ss {
		s.stop()
	}
}

func StopAll() { stopAll([]stopper{newIfaceLoop()}) }

func (l *ifaceLoop) PutIfaceStopBad(v int) {
	l.in <- v // want `send on l.in \(chan int, unbuffered\) can block forever: its receiver \(\*ifaceLoop\).run can stop receiving`
}

// handedLoop's stop channel is closed by an exported function the test
// hands it to: callers in other packages may close theirs, and the close
// is shipped code.
type handedLoop struct {
	done chan bool
	in   chan int
}

func newHandedLoop() *handedLoop {
	l := &handedLoop{done: make(chan bool), in: make(chan int)}
	go l.run()
	return l
}

func (l *handedLoop) run() {
	for {
		select {
		case <-l.done:
			return
		case v := <-l.in:
			_ = v
		}
	}
}

// Shut closes c.
func Shut(c chan bool) { close(c) }

func (l *handedLoop) PutHandedStopBad(v int) {
	l.in <- v // want `send on l.in \(chan int, unbuffered\) can block forever: its receiver \(\*handedLoop\).run can stop receiving`
}

// ExportedLoop's stop channel is an exported field: code in other
// packages may close it.
type ExportedLoop struct {
	Done chan struct{}
	in   chan int
}

func NewExportedLoop() *ExportedLoop {
	l := &ExportedLoop{Done: make(chan struct{}), in: make(chan int)}
	go l.run()
	return l
}

func (l *ExportedLoop) run() {
	for {
		select {
		case <-l.Done:
			return
		case v := <-l.in:
			_ = v
		}
	}
}

func (l *ExportedLoop) PutExportedStopBad(v int) {
	l.in <- v // want `send on l.in \(chan int, unbuffered\) can block forever: its receiver \(\*ExportedLoop\).run can stop receiving`
}
