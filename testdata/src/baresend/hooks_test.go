package baresend

import "testing"

func TestNotifier(t *testing.T) {
	n := newListener()
	go n.Tell("x")
	select {
	case <-n.events:
	case <-t.Context().Done():
		return
	}
}

func TestFill(t *testing.T) {
	out := make(chan string)
	go Fill(out, []string{"a", "b"})
	<-out
}
