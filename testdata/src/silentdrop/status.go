package silentdrop

import (
	"errors"
	"fmt"
)

var errFull = errors.New("queue full")

// The refuse contract: the caller learns the value was not taken.

func (b *bus) offerOK(e Event) bool {
	select {
	case b.events <- e: // ok: the default returns false
		return true
	default:
		return false
	}
}

func (b *bus) deliverOK(e Event) error {
	select {
	case b.events <- e: // ok: the default returns an error
		return nil
	default:
		return fmt.Errorf("deliver %s: %w", e.ID, errFull)
	}
}

func (b *bus) refuseAfterSelectOK(e Event) error {
	select {
	case b.events <- e: // ok: only the default reaches return errFull
		return nil
	default:
	}
	return errFull
}

func (b *bus) sharedWithStopOK(stop <-chan struct{}, e Event) bool {
	select {
	case b.events <- e: // ok: the default and the stop case return false; the send returns true
		return true
	case <-stop:
	default:
	}
	return false
}

// sameReturnBad returns nil either way: the caller cannot tell.
func (b *bus) sameReturnBad(e Event) error {
	select {
	case b.events <- e: // want `send on b\.events .* drops the Event without a trace`
		return nil
	default:
		return nil
	}
}

func (b *bus) sentFlagOK(e Event) bool {
	sent := false
	select {
	case b.events <- e: // ok: sent is returned
		sent = true
	default:
	}
	return sent
}

func (b *bus) sentFlagTestedOK(e Event) {
	sent := true
	select {
	case b.events <- e: // ok: sent decides what happens next
	default:
		sent = false
	}
	if !sent {
		panic("event bus full")
	}
}

func (b *bus) countSentOK(events []Event) int {
	n := 0
	for _, e := range events {
		select {
		case b.events <- e: // ok: the count of sent events is returned
			n++
		default:
		}
	}
	return n
}

// A status the helper returns and its callers act on: the refuse contract
// as the runner hub's deliver class uses it.
func (b *bus) tryEnqueue(e Event) bool {
	select {
	case b.events <- e: // ok: returns a status
		return true
	default:
		return false
	}
}

func (b *bus) send1(e Event) error {
	if !b.tryEnqueue(e) {
		return fmt.Errorf("no room for deliver %s; the sweep redelivers it", e.ID)
	}
	return nil
}
