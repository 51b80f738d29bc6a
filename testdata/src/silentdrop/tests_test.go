package silentdrop

import "testing"

func TestFirstErrorWins(t *testing.T) {
	errc := make(chan error, 1)
	for i := 0; i < 3; i++ {
		go func() {
			select {
			case errc <- nil: // ok: constant
			default:
			}
		}()
	}
	got := make(chan Event, 1)
	select {
	case got <- Event{ID: "x"}: // ok: a test that needs the value waits for it and fails
	default:
	}
	<-errc
}

func TestExpect(t *testing.T) {
	p := &prober{handlers: map[int]func(string){}}
	ack := make(chan string, 1)
	p.expect(1, ack)
	p.handlers[1]("pong")
	if got := <-ack; got != "pong" {
		t.Fatal(got)
	}
}
