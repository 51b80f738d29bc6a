// Package eventkit declares a subscription that several packages fill,
// each with a buffer of its own size.
package eventkit

type Note struct{ Text string }

type Subscription struct {
	Notes chan Note
}

// Subscribe makes a subscription with room for a burst of notes.
func Subscribe() *Subscription { return &Subscription{Notes: make(chan Note, 256)} }
