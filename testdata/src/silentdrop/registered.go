package silentdrop

// A notifier sends interest changes on channels its callers register, as
// os/signal's Notify does: the caller made the channel and chose its
// buffer, and the notifier's contract with that caller says a full
// channel misses a notice. The finding is in the audit tier. A channel the
// notifier makes itself has a buffer no caller can choose, and a notice
// it drops is lost.

type notifier struct {
	subs map[chan<- Event]string
	own  map[string]chan Event
}

// Register keeps the caller's channel.
func (n *notifier) Register(ch chan<- Event, subject string) {
	n.subs[ch] = subject
}

func (n *notifier) notifyAudit(e Event) {
	for ch := range n.subs {
		select {
		case ch <- e: // want `send on ch \(chan<- Event\) drops the Event without a trace.* \[audit: the channel is one a caller handed to this package, and that caller sizes its buffer\]$`
		default:
		}
	}
}

// Subscribe makes the channel, with a buffer of its choosing.
func (n *notifier) Subscribe(subject string) <-chan Event {
	ch := make(chan Event, 8)
	n.own[subject] = ch
	return ch
}

func (n *notifier) notifyOwnBad(e Event) {
	for _, ch := range n.own {
		select {
		case ch <- e: // want `send on ch \(chan Event\) drops the Event without a trace when the send cannot proceed: the default neither returns a status, logs, counts nor hands the value on$`
		default:
		}
	}
}
