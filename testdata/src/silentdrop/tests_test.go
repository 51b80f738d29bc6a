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
