package silentdrop

import "silentdrop/debuglog"

// An error reporter queues events for its transport and drops what the
// queue has no room for. Its default writes the drop through the project's
// own logger, a wrapper in another package that the pass knows logs by
// the fact that package exports: the drop can be seen. A default that
// only formats a description of the event writes nothing.

type reportEvent struct{ ID string }

type eventTransport struct{ items chan reportEvent }

func newEventTransport() *eventTransport {
	return &eventTransport{items: make(chan reportEvent, 30)}
}

func (t *eventTransport) sendLoggedOK(e reportEvent) {
	select {
	case t.items <- e: // ok: the wrapper logs the drop
	default:
		debuglog.Printf("event %s dropped: transport buffer full", e.ID)
	}
}

func (t *eventTransport) sendDescribedBad(e reportEvent) string {
	select {
	case t.items <- e: // want `send on t\.items \(chan reportEvent, cap 30\) drops the reportEvent without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
		_ = debuglog.Describe(e.ID)
	}
	return ""
}
