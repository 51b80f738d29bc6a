package silentdrop

import "time"

// Event is what the fixtures' channels carry.
type Event struct {
	ID   string
	Body []byte
}

type bus struct {
	events chan Event
	subs   []chan Event
	spill  []Event
}

func newBus() *bus {
	return &bus{events: make(chan Event, 64)}
}

func (b *bus) publishBad(e Event) {
	select {
	case b.events <- e: // want `send on b\.events \(chan Event, cap 64\) drops the Event without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on`
	default:
	}
}

// fanOutBad loses events for every slow subscriber, and nothing shows which.
func (b *bus) fanOutBad(e Event) {
	for _, sub := range b.subs {
		select {
		case sub <- e: // want `send on sub \(chan Event\) drops the Event without a trace when the send cannot proceed`
		default:
		}
	}
}

func (b *bus) continueBad(events []Event) {
	for _, e := range events {
		select {
		case b.events <- e: // want `send on b\.events .* drops the Event without a trace`
		default:
			continue
		}
	}
}

// trySendBad is a helper: every caller's value can vanish in it.
func trySendBad(ch chan<- *Event, e *Event) {
	select {
	case ch <- e: // want `send on ch \(chan<- \*Event\) drops the \*Event without a trace when the send cannot proceed`
	default:
	}
}

func publishAll(ch chan *Event, events []Event) {
	for i := range events {
		trySendBad(ch, &events[i])
	}
}

func (b *bus) sleepIsNoTraceBad(e Event) {
	select {
	case b.events <- e: // want `send on b\.events .* drops the Event without a trace`
	default:
		time.Sleep(time.Millisecond)
	}
}

// localCounterUnreadBad counts its drops in a variable nothing ever reads.
func (b *bus) localCounterUnreadBad(events []Event) {
	dropped := 0
	for _, e := range events {
		select {
		case b.events <- e: // want `send on b\.events .* drops the Event without a trace`
		default:
			dropped++
		}
	}
}

func unbufferedBad(e Event) {
	ch := make(chan Event)
	go func() { <-ch }()
	select {
	case ch <- e: // want `send on ch \(chan Event, unbuffered\) drops the Event without a trace when no receiver is ready`
	default:
	}
}

func twoChannelsBad(a, b chan Event, e Event) {
	select {
	case a <- e: // want `send on a \(chan Event\) or b \(chan Event\) drops the Event without a trace`
	case b <- e:
	default:
	}
}

func withDoneCaseBad(done <-chan struct{}, ch chan<- Event, e Event) error {
	select {
	case ch <- e: // want `send on ch .* drops the Event without a trace`
	case <-done:
		return nil
	default:
	}
	return nil
}

func suppressedOK(ch chan<- Event, e Event) {
	select {
	case ch <- e: //sendlint:ignore silentdrop the reader only wants the newest event
	default:
	}
}
