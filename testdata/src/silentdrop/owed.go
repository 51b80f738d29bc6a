package silentdrop

import (
	"time"

	"google.golang.org/grpc"
)

// A hook client queues each event for the one connection that delivers
// them to a daemon. When the daemon is busy the queue fills, and the
// select's default drops the event: one the caller handed over, or one a
// peer sent, is owed to someone, and a caller told nothing (or told nil)
// believes it was delivered. A value the queue computes from its own
// state is not owed: it can be computed again.

type hookLine struct {
	Event   Event
	Attempt int
}

type hookState struct {
	Pending int
	Since   time.Time
}

type hookQueue struct {
	lines chan hookLine
	state hookState
}

func newHookQueue() *hookQueue {
	return &hookQueue{lines: make(chan hookLine, 64)}
}

func (q *hookQueue) appendBad(e Event) {
	select {
	case q.lines <- hookLine{Event: e}: // want `send on q\.lines \(chan hookLine, cap 64\) drops the hookLine without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}

// appendTellsNilBad tells its caller the event went through.
func (q *hookQueue) appendTellsNilBad(e *Event) error {
	select {
	case q.lines <- hookLine{Event: *e}: // want `send on q\.lines .* drops the hookLine without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
	return nil
}

// relayUntilFullBad stops at the first full queue and returns nil: the
// caller reads it as the input ending well.
func (q *hookQueue) relayUntilFullBad(in <-chan Event) error {
	for {
		e := <-in
		select {
		case q.lines <- hookLine{Event: e}: // want `send on q\.lines .* drops the hookLine without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
		default:
			return nil
		}
	}
}

// relayUntilFullOK says why it stopped.
func (q *hookQueue) relayUntilFullOK(in <-chan Event) error {
	for {
		e := <-in
		select {
		case q.lines <- hookLine{Event: e}: // ok: the default returns errFull
		default:
			return errFull
		}
	}
}

// Hook_Server is a generated server stream of hook events.
type Hook_Server interface {
	Recv() (*Event, error)
	grpc.ServerStream
}

// serveBad loses events a client sent on the stream.
func (q *hookQueue) serveBad(stream Hook_Server) error {
	for {
		e, err := stream.Recv()
		if err != nil {
			return err
		}
		select {
		case q.lines <- hookLine{Event: *e}: // want `send on q\.lines .* drops the hookLine without a trace`
		default:
		}
	}
}

// appendLaterBad: the goroutine sends the event its starter was given.
func (q *hookQueue) appendLaterBad(e Event) {
	go func() {
		select {
		case q.lines <- hookLine{Event: e}: // want `send on q\.lines .* drops the hookLine without a trace`
		default:
		}
	}()
}

// forwardBad: a value received from a channel is a request someone sent.
func (q *hookQueue) forwardBad(in <-chan hookLine) {
	for line := range in {
		select {
		case q.lines <- line: // want `send on q\.lines .* drops the hookLine without a trace`
		default:
		}
	}
}

// progressAudit sends the queue's own state, which the next report
// computes again.
func (q *hookQueue) progressAudit(progress chan<- hookState) {
	select {
	case progress <- q.state: // want `send on progress \(chan<- hookState\) drops the hookState without a trace when the send cannot proceed: the default neither returns a status, logs, counts nor hands the value on \[audit: the dropped value is not owed to a caller or a request\]$`
	default:
	}
}

// stampAudit sends the time: the next one is as good.
func stampAudit(stamps chan<- time.Time) {
	select {
	case stamps <- time.Now(): // want `send on stamps .* \[audit: the dropped value is not owed to a caller or a request\]$`
	default:
	}
}

// notifyInterest is a helper whose every call is in sight, and every call
// hands it a constant: it drops nobody's value.
func notifyInterest(ch chan<- bool, interest bool) {
	select {
	case ch <- interest: // want `send on ch \(chan<- bool\) drops the bool without a trace.* \[audit: the dropped value is not owed to a caller or a request\]$`
	default:
	}
}

func interestChanged(added, removed chan<- bool) {
	notifyInterest(added, true)
	notifyInterest(removed, false)
}

// prober waits a while for the ack of each probe; the handler answers
// without waiting, and an ack that comes after the prober gave up has no
// one to go to.
type prober struct{ handlers map[int]func(string) }

func (p *prober) probe(seq, peers int, timeout <-chan struct{}) (string, bool) {
	ack := make(chan string, peers+1)
	p.handlers[seq] = func(payload string) {
		select {
		case ack <- payload: // want `send on ack .*\[audit: the one waiting for it gives up after a while, and a late answer has no one to go to\]`
		default:
		}
	}
	select {
	case a := <-ack:
		return a, true
	case <-timeout:
		return "", false
	}
}

// probeTwice waits a while for the direct ack, then without a timeout for
// the answer its own reaper sends when the probe expires: an ack after
// the first wait has no one to go to but a queue the prober reads once.
func (p *prober) probeTwice(seq, peers int, timeout <-chan struct{}, reap func(func())) string {
	ack := make(chan string, peers+1)
	p.handlers[seq] = func(payload string) {
		select {
		case ack <- payload: // want `send on ack .*\[audit: the one waiting for it gives up after a while, and a late answer has no one to go to\]`
		default:
		}
	}
	reap(func() { ack <- "expired" })
	select {
	case a := <-ack:
		return a
	case <-timeout:
	}
	return <-ack
}

// expect registers the handler that answers one ping; its callers make
// the reply slot. A test that waits for the answer without a timeout says
// nothing about the prober in production, which gives up.
func (p *prober) expect(seq int, ack chan string) {
	p.handlers[seq] = func(payload string) {
		select {
		case ack <- payload: // want `send on ack .*\[audit: the one waiting for it gives up after a while, and a late answer has no one to go to\]`
		default:
		}
	}
}

func (p *prober) ping(seq, peers int, timeout <-chan struct{}) bool {
	ack := make(chan string, peers+1)
	p.expect(seq, ack)
	select {
	case <-ack:
		return true
	case <-timeout:
		return false
	}
}

// askBad collects one answer from each peer and never gives up: a full
// slot drops an answer the asker still waits for.
func (p *prober) askBad(seq, peers int) []string {
	ack := make(chan string, 1)
	p.handlers[seq] = func(payload string) {
		select {
		case ack <- payload: // want `send on ack \(chan string, cap 1\) drops the string without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
		default:
		}
	}
	var got []string
	for i := 0; i < peers; i++ {
		got = append(got, <-ack)
	}
	return got
}

// tee copies each event to its own stream.
type tee struct{ stream chan string }

func (t *tee) forward(e string) {
	// Forward to the stream, never block the caller.
	select {
	case t.stream <- e: // want `send on t.stream .*\[audit: a comment in the default says the drop is intended\]`
	default:
	}
}

// A watch hub merges watches. Each watch hands the hub's merge hint back
// through a method value; the hint carries the watch the hub numbered
// itself, so a hint dropped on a full slot costs a merge, not anybody's
// data. A relay's forward, handed out the same way, is called with
// messages read off the wire: those are owed.
type watch struct{ id int }

type watchHub struct {
	next   int
	mergec chan *watch
	out    chan string
}

func (h *watchHub) add() *watch {
	h.next++
	return startWatch(h.next, h.merge)
}

func startWatch(id int, hint func(*watch)) *watch {
	w := &watch{id: id}
	go func() { hint(w) }()
	return w
}

func (h *watchHub) merge(w *watch) {
	select {
	case h.mergec <- w: // want `send on h\.mergec .*\[audit: the dropped value is not owed to a caller or a request\]$`
	default:
	}
}

func (h *watchHub) relay(in <-chan string) {
	pump(in, h.forward)
}

func pump(in <-chan string, forward func(string)) {
	for m := range in {
		forward(m)
	}
}

func (h *watchHub) forward(m string) {
	select {
	case h.out <- m: // want `send on h\.out \(chan string\) drops the string without a trace when the send cannot proceed: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}

// A queue sized to its agents: the message names the buffer by the size
// its make was given.
type agentQueue struct{ lines chan hookLine }

func newAgentQueue(agents []string) *agentQueue {
	return &agentQueue{lines: make(chan hookLine, 2*len(agents))}
}

func (q *agentQueue) appendBad(e Event) {
	select {
	case q.lines <- hookLine{Event: e}: // want `send on q\.lines \(chan hookLine, cap 2 \* len\(agents\)\) drops the hookLine without a trace when the channel is full`
	default:
	}
}
