package baresend

// listener tells whoever listens about each event; in this package only a
// test listens, and gives up. A test's receiver proves nothing about the
// code that ships.
type listener struct{ events chan string }

func newListener() *listener { return &listener{events: make(chan string)} }

func (n *listener) Tell(e string) {
	n.events <- e // want `send on n.events .*\[audit: `
}

// Fill sends each value to the caller's channel. Only a test calls it
// here, with a channel it stops reading: the test's channel proves nothing
// about Fill.
func Fill(out chan string, vs []string) {
	for _, v := range vs {
		out <- v // want `send on out .*\[audit: no receiver of it is visible in this package\]`
	}
}
