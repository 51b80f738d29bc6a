package silentdrop

import "time"

// A reachability watcher is told of each new connection by the network's
// notifier, which must not wait. The watcher only wants to know that a
// public peer reached it lately: a connection dropped while five are
// queued loses a notice, not data (audit). A tracker that keeps the
// connections it is told of, or a control loop that acts on the kind of
// each command, loses what it was owed (reported).

type Conn interface {
	RemoteAddr() string
	Inbound() bool
}

func isPublic(addr string) bool { return addr != "" && addr[0] != '1' }

type reachability struct {
	inbound     chan Conn
	lastInbound time.Time
	stop        chan struct{}
}

func newReachability() *reachability {
	return &reachability{inbound: make(chan Conn, 5), stop: make(chan struct{})}
}

func (r *reachability) ConnectedAudit(c Conn) {
	if !c.Inbound() {
		return
	}
	select {
	case r.inbound <- c: // want `send on r\.inbound \(chan Conn, cap 5\) drops the Conn without a trace.* \[audit: its receivers keep nothing of the value, they only test it: a drop loses a notice, not data\]$`
	default:
	}
}

func (r *reachability) run() {
	for {
		select {
		case c := <-r.inbound:
			if c.Inbound() && isPublic(c.RemoteAddr()) {
				r.lastInbound = time.Now()
			}
		case <-r.stop:
			return
		}
	}
}

// peerTracker keeps every connection it is told of.
type peerTracker struct {
	conns chan Conn
	peers []Conn
}

func newPeerTracker() *peerTracker { return &peerTracker{conns: make(chan Conn, 5)} }

func (t *peerTracker) ConnectedBad(c Conn) {
	select {
	case t.conns <- c: // want `send on t\.conns \(chan Conn, cap 5\) drops the Conn without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}

func (t *peerTracker) run() {
	for c := range t.conns {
		if isPublic(c.RemoteAddr()) {
			t.peers = append(t.peers, c)
		}
	}
}

// controlLoop acts on each command by its kind: dropping one loses it.
type command int

const (
	pause command = iota
	resume
)

type controlLoop struct {
	cmds   chan command
	paused bool
}

func newControlLoop() *controlLoop { return &controlLoop{cmds: make(chan command, 5)} }

func (l *controlLoop) PostBad(c command) {
	select {
	case l.cmds <- c: // want `send on l\.cmds \(chan command, cap 5\) drops the command without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}

func (l *controlLoop) run() {
	for c := range l.cmds {
		if c == pause {
			l.paused = true
		}
	}
}
