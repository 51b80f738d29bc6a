package baresend

// A notifier that serves two channels in one select and, when one of them
// is closed, drains the other until it is closed too, stops only once both
// are closed: no sender is left waiting on either. One that returns as soon
// as the first is closed leaves the other's senders on their send.

type candidate struct{ addr string }

type linkState int

// drainingNotifier hands an agent's candidates and state changes to the
// application's callbacks. The agent's loop closes both channels when it
// exits, after its last send.
type drainingNotifier struct {
	candidates chan candidate
	states     chan linkState
}

func newDrainingNotifier() *drainingNotifier {
	n := &drainingNotifier{candidates: make(chan candidate), states: make(chan linkState)}
	go n.deliver()
	return n
}

func (n *drainingNotifier) deliver() {
	for {
		select {
		case c, ok := <-n.candidates:
			if !ok {
				for s := range n.states {
					println(s)
				}
				return
			}
			println(c.addr)
		case s, ok := <-n.states:
			if !ok {
				for c := range n.candidates {
					println(c.addr)
				}
				return
			}
			println(s)
		}
	}
}

func (n *drainingNotifier) addCandidateOK(c candidate) {
	n.candidates <- c // ok: deliver returns only after it has seen candidates closed
}

func (n *drainingNotifier) setStateOK(s linkState) {
	n.states <- s // ok: deliver returns only after it has seen states closed
}

func (n *drainingNotifier) close() {
	close(n.candidates)
	close(n.states)
}

// hastyNotifier returns as soon as either channel is closed, and leaves the
// other one unread.
type hastyNotifier struct {
	candidates chan candidate
	states     chan linkState
}

func newHastyNotifier() *hastyNotifier {
	n := &hastyNotifier{candidates: make(chan candidate), states: make(chan linkState)}
	go n.deliver()
	return n
}

func (n *hastyNotifier) deliver() {
	for {
		select {
		case c, ok := <-n.candidates:
			if !ok {
				return
			}
			println(c.addr)
		case s, ok := <-n.states:
			if !ok {
				<-n.candidates // one more, not all of them
				return
			}
			println(s)
		}
	}
}

func (n *hastyNotifier) addCandidateBad(c candidate) {
	n.candidates <- c // want `send on n.candidates \(chan candidate, unbuffered\) can block forever: its receiver \(\*hastyNotifier\).deliver can stop receiving`
}

// setStateBad is left behind when deliver returns on the closed
// candidates, but close closes states right after: the send panics
// rather than waits, which closedtogether.go leaves to the audit tier.
func (n *hastyNotifier) setStateBad(s linkState) {
	n.states <- s // want `send on n.states \(chan linkState, unbuffered\) can block forever: its receiver \(\*hastyNotifier\).deliver can stop receiving.*\[audit: every stop of its receiver \(\*hastyNotifier\)\.deliver closes the channel too`
}

func (n *hastyNotifier) close() {
	close(n.candidates)
	close(n.states)
}
