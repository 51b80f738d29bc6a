package silentdrop

type waker struct {
	wake    chan struct{}
	ready   chan bool
	nothing chan [0]int
}

func (w *waker) wakeOK() {
	select {
	case w.wake <- struct{}{}: // ok: a pending wake-up stands for this one
	default:
	}
}

func (w *waker) constantOK() {
	select {
	case w.ready <- true: // ok: a constant says only that something happened
	default:
	}
}

func (w *waker) zeroSizeOK() {
	select {
	case w.nothing <- [0]int{}: // ok: zero size
	default:
	}
}

func (w *waker) computedBoolBad(ok bool) {
	select {
	case w.ready <- ok: // want `send on w\.ready \(chan bool\) drops the bool without a trace`
	default:
	}
}

// genericSendBad: T may carry data.
func genericSendBad[T any](ch chan T, v T) {
	select {
	case ch <- v: // want `send on ch \(chan T\) drops the T without a trace`
	default:
	}
}

// firstErrorWinsOK: a pending error already says that something failed.
func firstErrorWinsOK(errc chan<- error, err error) {
	select {
	case errc <- err: // ok: an error channel is a failure signal
	default:
	}
}
