package silentdrop

import (
	"net"
	"time"
)

// A relay client's transaction: the caller writes the request, then waits
// for the answer the read loop hands over. The hand-over does not wait, on
// an unbuffered channel, so an answer that comes back before the caller
// has started waiting is thrown away; WriteResult's false reaches only the
// read loop, and the caller waits on.
type relayTxn struct {
	resultCh chan relayResult
}

type relayResult struct {
	Msg []byte
	Err error
}

func newRelayTxn() *relayTxn { return &relayTxn{resultCh: make(chan relayResult)} }

func (t *relayTxn) WriteResult(res relayResult) bool {
	select {
	case t.resultCh <- res: // want `send on t\.resultCh \(chan relayResult, unbuffered\) drops the relayResult unless \(\*relayTxn\)\.WaitForResult is already waiting, and it waits for one value without a timeout: an answer that comes first is lost and the waiter waits on; the default tells only the sender's caller$`
		return true
	default:
		return false
	}
}

func (t *relayTxn) WaitForResult() relayResult { return <-t.resultCh }

func RoundTrip(conn net.Conn, req []byte) relayResult {
	t := newRelayTxn()
	go func() {
		buf := make([]byte, 1500)
		n, err := conn.Read(buf)
		t.WriteResult(relayResult{Msg: buf[:n], Err: err})
	}()
	conn.Write(req)
	return t.WaitForResult()
}

// The same transaction with a one-slot result: the answer waits in the
// buffer for a caller that comes late, and only a second answer is
// dropped, which the status reports.
type bufferedTxn struct {
	resultCh chan relayResult
}

func newBufferedTxn() *bufferedTxn { return &bufferedTxn{resultCh: make(chan relayResult, 1)} }

func (t *bufferedTxn) WriteResult(res relayResult) bool {
	select {
	case t.resultCh <- res:
		return true
	default:
		return false
	}
}

func (t *bufferedTxn) WaitForResult() relayResult { return <-t.resultCh }

func BufferedRoundTrip(conn net.Conn, req []byte) relayResult {
	t := newBufferedTxn()
	go func() {
		buf := make([]byte, 1500)
		n, err := conn.Read(buf)
		t.WriteResult(relayResult{Msg: buf[:n], Err: err})
	}()
	conn.Write(req)
	return t.WaitForResult()
}

// A waiter that gives up after a while: an answer after the timeout has
// no one to go to, and the status says it was not taken.
type timedTxn struct {
	resultCh chan relayResult
}

func newTimedTxn() *timedTxn { return &timedTxn{resultCh: make(chan relayResult)} }

func (t *timedTxn) WriteResult(res relayResult) bool {
	select {
	case t.resultCh <- res:
		return true
	default:
		return false
	}
}

func (t *timedTxn) WaitForResult(d time.Duration) (relayResult, bool) {
	select {
	case r := <-t.resultCh:
		return r, true
	case <-time.After(d):
		return relayResult{}, false
	}
}

// A monitor that takes samples in a loop: one it is too busy to take is
// skipped, and the next comes soon; the status counts the skips.
type sampler struct {
	samples chan int
	skipped int
}

func newSampler() *sampler {
	s := &sampler{samples: make(chan int)}
	go s.run()
	return s
}

func (s *sampler) run() {
	for {
		v := <-s.samples
		println(v)
	}
}

func (s *sampler) Offer(v int) bool {
	select {
	case s.samples <- v:
		return true
	default:
		return false
	}
}
