package silentdrop

// A default that explains the drop in a comment was written that way on
// purpose: the author says who recovers the value. The finding stays in
// the audit tier, for a reviewer who wants to check the claim. A comment
// that marks the drop as unfinished says the opposite.

// resendLaterAudit: the journal keeps the event, and the sweep resends it.
func (q *hookQueue) resendLaterAudit(e Event) {
	select {
	case q.lines <- hookLine{Event: e}: // want `send on q\.lines .* drops the hookLine without a trace.* \[audit: a comment in the default says the drop is intended\]$`
	default:
		// the journal still holds e; the sweep resends it in a second
	}
}

// commentAboveDefaultAudit explains on the line above default.
func (q *hookQueue) commentAboveDefaultAudit(e Event) {
	select {
	case q.lines <- hookLine{Event: e}: // want `\[audit: a comment in the default says the drop is intended\]$`
	// the daemon replays every hook from its idempotency receipt
	default:
	}
}

// unfinishedBad: a TODO says the drop is known and not handled.
func (q *hookQueue) unfinishedBad(e Event) {
	select {
	case q.lines <- hookLine{Event: e}: // want `send on q\.lines .* drops the hookLine without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default: // TODO: keep the event for the next connection
	}
}

// teeAudit explains above the if that opens the select: the copy to the
// user's channel must never hold up the internal stream.
func (q *hookQueue) teeAudit(e Event) {
	// Forward the event to the listener too, never waiting on it
	if q.lines != nil {
		select {
		case q.lines <- hookLine{Event: e}: // want `\[audit: a comment in the default says the drop is intended\]$`
		default:
		}
	}
}

// commentAboveOtherWorkBad: the comment above the if is about the
// statement that opens it, not about the select that follows.
func (q *hookQueue) commentAboveOtherWorkBad(e Event) {
	// Note the event as pending before it is forwarded
	if q.lines != nil {
		q.state.Pending++
		select {
		case q.lines <- hookLine{Event: e}: // want `send on q\.lines .* drops the hookLine without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
		default:
		}
	}
}
