package baresend

import "testing"

func TestInboxDeliver(t *testing.T) {
	in := &inbox{mail: make(chan string)}
	go func() { <-in.mail }()
	in.Deliver("hello")
}
