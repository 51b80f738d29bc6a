package silentdrop

import (
	"errors"
	"time"
)

// A publisher that waits a configured while for each subscriber, and drops
// the event for one too slow, has chosen to lose events rather than let
// one subscriber hold up the rest. With no wait configured it drops at
// once: the default is the same choice, and the finding is in the audit
// tier. A function whose timed send tells its caller, while its default
// does not, made no such choice.

type eventBus struct {
	timeout time.Duration
	subs    []chan Event
}

// publishAudit waits up to the timeout, then gives up without a trace.
func (b *eventBus) publishAudit(sub chan Event, e Event) {
	if b.timeout > 0 {
		timer := time.NewTimer(b.timeout)
		defer timer.Stop()
		select {
		case sub <- e:
		case <-timer.C:
		}
		return
	}
	select {
	case sub <- e: // want `send on sub \(chan Event\) drops the Event without a trace.*\[audit: the function also gives up on this send after a timeout, without a trace: dropping is its policy\]$`
	default:
	}
}

// publishAfterAudit waits with time.After.
func (b *eventBus) publishAfterAudit(sub chan Event, e Event) {
	if b.timeout > 0 {
		select {
		case sub <- e:
		case <-time.After(b.timeout):
		}
		return
	}
	select {
	case sub <- e: // want `\[audit: the function also gives up on this send after a timeout, without a trace: dropping is its policy\]$`
	default:
	}
}

var errSlowSubscriber = errors.New("subscriber too slow")

// publishBad reports a subscriber too slow for the timeout, but drops
// silently when none is configured.
func (b *eventBus) publishBad(sub chan Event, e Event) error {
	if b.timeout > 0 {
		select {
		case sub <- e:
		case <-time.After(b.timeout):
			return errSlowSubscriber
		}
		return nil
	}
	select {
	case sub <- e: // want `send on sub \(chan Event\) drops the Event without a trace when the send cannot proceed: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
	return nil
}

// publishOtherBad's timed send is of another value: the drop of e is its
// own.
func (b *eventBus) publishOtherBad(sub chan Event, e Event, hello Event) {
	select {
	case sub <- hello:
	case <-time.After(b.timeout):
	}
	select {
	case sub <- e: // want `send on sub \(chan Event\) drops the Event without a trace when the send cannot proceed: the default neither returns a status, logs, counts nor hands the value on$`
	default:
	}
}
