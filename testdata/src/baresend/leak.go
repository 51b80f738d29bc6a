package baresend

import (
	"context"
	"sync"
	"time"
)

func query(replica string) string { return replica }

func timeoutLeaksBad(ctx context.Context) (string, error) {
	ch := make(chan string)
	go func() {
		ch <- query("primary") // want `send on ch \(chan string, unbuffered\) can block forever: timeoutLeaksBad can return without receiving it`
	}()
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(time.Second):
		return "", context.DeadlineExceeded
	}
}

func timeoutWithRoomOK(ctx context.Context) (string, error) {
	ch := make(chan string, 1)
	go func() {
		ch <- query("primary") // ok: the buffer keeps the late answer
	}()
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func earlyReturnBad(skip bool) string {
	ch := make(chan string)
	go func() {
		ch <- query("primary") // want `send on ch .* earlyReturnBad can return without receiving it`
	}()
	if skip {
		return ""
	}
	return <-ch
}

func unconditionalReceiveOK() string {
	ch := make(chan string)
	go func() {
		ch <- query("primary") // ok: received on every path
	}()
	return <-ch
}

func firstOfNBad(replicas []string) string {
	ch := make(chan string)
	for _, r := range replicas {
		go func() {
			ch <- query(r) // want `send on ch .* firstOfNBad can return before receiving every value`
		}()
	}
	return <-ch
}

func allOfNOK(replicas []string) []string {
	ch := make(chan string)
	for _, r := range replicas {
		go func() {
			ch <- query(r) // ok: one receive per sender
		}()
	}
	var out []string
	for range replicas {
		out = append(out, <-ch)
	}
	return out
}

func untilClosedOK(replicas []string) []string {
	ch := make(chan string)
	var wg sync.WaitGroup
	for _, r := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch <- query(r) // ok: the owner ranges until the channel is closed
		}()
	}
	go func() { wg.Wait(); close(ch) }()
	var out []string
	for s := range ch {
		out = append(out, s)
	}
	return out
}

func rangeWithEarlyReturnBad(replicas []string) string {
	ch := make(chan string)
	var wg sync.WaitGroup
	for _, r := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch <- query(r) // want `send on ch .* rangeWithEarlyReturnBad can return before receiving every value`
		}()
	}
	go func() { wg.Wait(); close(ch) }()
	for s := range ch {
		if s != "" {
			return s
		}
	}
	return ""
}

func twoAnswersTwoReceivesOK() (string, string) {
	ch := make(chan string)
	go func() { ch <- query("a") }() // ok: two receives on every path
	go func() { ch <- query("b") }() // ok: as above
	return <-ch, <-ch
}

func worker(results chan<- string, r string) {
	results <- query(r) // want `send on results .* workerOwnerBad can return without receiving it`
}

func workerOwnerBad(ctx context.Context) string {
	results := make(chan string)
	go worker(results, "primary")
	select {
	case s := <-results:
		return s
	case <-ctx.Done():
		return ""
	}
}

func twoWorkersTwoReceivesOK() {
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func() { done <- true }() // ok: two senders, two receives
	}
	<-done
	<-done
}

func threeWorkersTwoReceivesBad() {
	done := make(chan bool)
	for range 3 {
		go func() { done <- true }() // want `send on done .* threeWorkersTwoReceivesBad can return before receiving every value`
	}
	<-done
	<-done
}

// switchBothOK points a client at a primary and a replica at once and
// stops at the first error: the loop over 2 receives at least once, and
// the one slot holds the other answer.
func switchBothOK(switchTo func(string) error) error {
	errs := make(chan error, 1)
	go func() { errs <- switchTo("primary") }() // ok: one receive and one slot for two answers
	go func() { errs <- switchTo("replica") }() // ok: as above
	for range 2 {
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}

// switchAllBad does the same over a list of targets that may be longer
// than two: the slot holds one of the answers left behind, not all.
func switchAllBad(switchTo func(string) error, targets []string) error {
	errs := make(chan error, 1)
	for _, t := range targets {
		go func() { errs <- switchTo(t) }() // want `send on errs \(chan error, cap 1\) can block forever: switchAllBad can return without receiving it`
	}
	for range len(targets) {
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}

// waitAllOK waits for every checker and notes the late ones: one
// goroutine per checker sends one result, and the range over the count
// takes one a trip, with no way out before the last. Its body branches,
// so the range is a rotated loop tested at the end of each trip.
func waitAllOK(ctx context.Context, checkers []func() <-chan struct{}) (late int) {
	var wg sync.WaitGroup
	results := make(chan bool)
	for _, done := range checkers {
		wg.Go(func() {
			select {
			case <-done():
				results <- true // ok: one receive per checker
			case <-ctx.Done():
				results <- false // ok: as above
			}
		})
	}
	for range len(checkers) {
		if !<-results {
			late++
		}
	}
	wg.Wait()
	return late
}

// waitAllButOneBad takes one result too few: the last checker's goroutine
// is left waiting on its send.
func waitAllButOneBad(ctx context.Context, checkers []func() <-chan struct{}) (late int) {
	results := make(chan bool)
	for _, done := range checkers {
		go func() {
			select {
			case <-done():
				results <- true // want `send on results \(chan bool, unbuffered\) can block forever: waitAllButOneBad can return without receiving it`
			case <-ctx.Done():
				results <- false // want `send on results \(chan bool, unbuffered\) can block forever: waitAllButOneBad can return without receiving it`
			}
		}()
	}
	for range len(checkers) - 1 {
		if !<-results {
			late++
		}
	}
	return late
}

// waitFromOneBad counts its receives from one: one result too few, too.
func waitFromOneBad(ctx context.Context, checkers []func() <-chan struct{}) (late int) {
	results := make(chan bool)
	for _, done := range checkers {
		go func() {
			select {
			case <-done():
				results <- true // want `send on results \(chan bool, unbuffered\) can block forever: waitFromOneBad can return before receiving every value`
			case <-ctx.Done():
				results <- false // want `send on results \(chan bool, unbuffered\) can block forever: waitFromOneBad can return before receiving every value`
			}
		}()
	}
	for i := 1; i < len(checkers); i++ {
		if !<-results {
			late++
		}
	}
	return late
}

func startOneAtATimeOK(n int) {
	ready := make(chan struct{})
	for i := 0; i < n; i++ {
		go func() {
			ready <- struct{}{} // ok: the owner receives once per start, in the same iteration
		}()
		<-ready
	}
}

func sharedStatusOK(jobs []func() error, done func(error)) {
	type status struct {
		running  int
		firstErr error
	}
	statusc := make(chan status, 1)
	statusc <- status{running: len(jobs)} // ok: the one slot the token lives in
	for _, job := range jobs {
		go func() {
			err := job()
			st := <-statusc
			if st.firstErr == nil {
				st.firstErr = err
			}
			st.running--
			if st.running == 0 {
				done(st.firstErr)
				return
			}
			statusc <- st // ok: puts back the token it took
		}()
	}
}

// dialFirst makes a channel per address inside its loop; a dial that
// times out is left behind, and the next trip makes a new channel.
func dialFirstBad(addrs []string, dial func(string) error, timeout <-chan struct{}) error {
	for _, addr := range addrs {
		ch := make(chan error)
		go func() {
			ch <- dial(addr) // want `send on ch \(chan error, unbuffered\) can block forever: dialFirstBad can go on to its next iteration, which makes a new channel, without receiving it`
		}()
		select {
		case err := <-ch:
			if err == nil {
				return nil
			}
		case <-timeout:
			continue
		}
	}
	return nil
}

// dialEachOK waits for every dial it starts before the next.
func dialEachOK(addrs []string, dial func(string) error) error {
	for _, addr := range addrs {
		ch := make(chan error)
		go func() {
			ch <- dial(addr) // ok: received before the next trip
		}()
		if err := <-ch; err == nil {
			return nil
		}
	}
	return nil
}

// broker delivers events by calling each subscriber's callback from its
// own goroutine.
type broker interface {
	Subscribe(func(string)) (cancel func())
}

// firstEventBad hands the broker a callback that sends on a local channel,
// then stops waiting on timeout: the broker's goroutine blocks in the
// callback on the next event.
func firstEventBad(b broker, timeout <-chan struct{}) string {
	events := make(chan string)
	cancel := b.Subscribe(func(e string) {
		events <- e // want `send on events \(chan string, unbuffered\) can block forever: firstEventBad can return without receiving it`
	})
	defer cancel()
	select {
	case e := <-events:
		return e
	case <-timeout:
		return ""
	}
}

// FindAll streams results to its caller, who stops reading when it has
// enough and cancels: the goroutine's next send blocks forever.
func FindAll(next func() (string, bool)) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		for {
			v, ok := next()
			if !ok {
				return
			}
			out <- v // want `send on out \(chan string, unbuffered\) can block forever: its receiver is the caller FindAll returns it to, who can stop reading`
		}
	}()
	return out
}

// First hands its caller one value, with room for it: a generator of one.
func First(get func() string) <-chan string {
	out := make(chan string, 1)
	go func() {
		out <- get() // ok: room for the one value it sends
	}()
	return out
}

// runUntilDone waits for the worker's error, or for the worker to finish
// without one. done is closed by the worker on its way out, after the
// send: the owner sees it only once the send has gone through.
func runUntilDoneOK(work func() error) error {
	errc := make(chan error)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := work(); err != nil {
			errc <- err // ok: done closes only after this send went through
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-done:
		return nil
	}
}

// runAnnounced closes done to say the worker started, before its send:
// the owner can take done and return, and the send then waits for good.
func runAnnouncedBad(work func() error) error {
	errc := make(chan error)
	done := make(chan struct{})
	go func() {
		close(done)
		errc <- work() // want `send on errc \(chan error, unbuffered\) can block forever: runAnnouncedBad can return without receiving it`
	}()
	select {
	case err := <-errc:
		return err
	case <-done:
		return nil
	}
}

// leaseClosesBad closes the channel its workers report to as it returns,
// which it can do before they report: a worker still waiting then panics.
func leaseClosesBad(ctx context.Context, work func() error) error {
	errc := make(chan error)
	defer close(errc)
	go func() {
		errc <- work() // want `send on errc \(chan error, unbuffered\) can block and then panic: leaseClosesBad can return without receiving it, and closes it as it returns`
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// leaseWaitsOK closes the channel only after it received the one report.
func leaseWaitsOK(work func() error) error {
	errc := make(chan error)
	defer close(errc)
	go func() {
		errc <- work()
	}()
	return <-errc
}

type proxyStage struct {
	in        chan []byte
	interrupt chan struct{}
}

// interrupt stops the stage's pipe loop, and reports whether it was running.
func (s *proxyStage) stop() bool {
	select {
	case s.interrupt <- struct{}{}:
		return true
	default:
		return false
	}
}

// removeStageOK interrupts the previous stage while it flushes what is in
// flight to this one; the receive after the loop is skipped only when the
// flag says the loop already took the answer.
func removeStageOK(prev, cur *proxyStage, forward func([]byte)) {
	stop := make(chan bool)
	go func() {
		stop <- prev.stop() // ok: received in the loop, or after it when the flag says not yet
	}()
	interrupted, stopped := false, false
	for !interrupted {
		select {
		case interrupted = <-stop:
			stopped = true
		case chunk := <-cur.in:
			if chunk == nil {
				if !stopped {
					<-stop
				}
				return
			}
			forward(chunk)
		}
	}
}

// removeStageTimeoutBad also sets the flag when it gives up waiting, so
// its return after a timeout leaves the interrupter blocked.
func removeStageTimeoutBad(prev, cur *proxyStage, forward func([]byte)) {
	stop := make(chan bool)
	go func() {
		stop <- prev.stop() // want `send on stop \(chan bool, unbuffered\) can block forever: removeStageTimeoutBad can return without receiving it`
	}()
	interrupted, stopped := false, false
	for !interrupted {
		select {
		case interrupted = <-stop:
			stopped = true
		case <-time.After(time.Second):
			stopped = true
		case chunk := <-cur.in:
			if chunk == nil {
				if !stopped {
					<-stop
				}
				return
			}
			forward(chunk)
		}
	}
}
