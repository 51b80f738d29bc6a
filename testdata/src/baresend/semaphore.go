package baresend

// A write loop lets one batch be written while it gathers the next: a
// one-slot semaphore that each batch's writer gives back when it is done.

type writeRequest struct{ key string }

func writeBatch([]*writeRequest) error { return nil }

func writeLoopOK(in <-chan *writeRequest, closed <-chan struct{}) {
	pending := make(chan struct{}, 1)
	write := func(reqs []*writeRequest) {
		_ = writeBatch(reqs)
		<-pending
	}
	var reqs []*writeRequest
	for {
		select {
		case r := <-in:
			reqs = append(reqs, r)
		case <-closed:
			pending <- struct{}{} // ok: waits for the last writer to give its token back
			write(reqs)
			return
		}
		if len(reqs) >= 100 {
			pending <- struct{}{} // ok: as above
			go write(reqs)
			reqs = nil
			continue
		}
		select {
		case pending <- struct{}{}: // ok: as above
			go write(reqs)
			reqs = nil
		default:
		}
	}
}

// writeLoopLeakyBad's writer keeps its token when the write fails: the
// next acquire then waits for ever.
func writeLoopLeakyBad(in <-chan *writeRequest) {
	pending := make(chan struct{}, 1)
	write := func(reqs []*writeRequest) {
		if err := writeBatch(reqs); err != nil {
			return
		}
		<-pending
	}
	for r := range in {
		pending <- struct{}{} // want `send on pending \(chan struct\{\}, cap 1\) can block forever`
		go write([]*writeRequest{r})
	}
}

// writeLoopTwiceBad takes a second token before it starts the writer that
// gives the first back.
func writeLoopTwiceBad(in <-chan *writeRequest) {
	pending := make(chan struct{}, 1)
	write := func(reqs []*writeRequest) {
		_ = writeBatch(reqs)
		<-pending
	}
	for r := range in {
		pending <- struct{}{} // want `send on pending \(chan struct\{\}, cap 1\) can block forever`
		pending <- struct{}{} // want `send on pending \(chan struct\{\}, cap 1\) can block forever`
		go write([]*writeRequest{r})
	}
}
