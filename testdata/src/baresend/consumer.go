package baresend

import "context"

// stream is one client's outbound side.
type stream interface{ Send(Response) error }

func feedback(s stream, feedbackChan <-chan Response, drain <-chan struct{}) {
	for {
		select {
		case <-drain:
			return
		case r := <-feedbackChan:
			if err := s.Send(r); err != nil {
				return
			}
		}
	}
}

func handleBad(s stream, drain <-chan struct{}, reqs []Response) {
	feedbackChan := make(chan Response, 100)
	go feedback(s, feedbackChan, drain)
	for _, r := range reqs {
		feedbackChan <- r // want `send on feedbackChan \(chan Response, cap 100\) can block forever: its receiver feedback can return before draining it`
	}
	close(feedbackChan)
}

func drainAll(s stream, feedbackChan <-chan Response) {
	for r := range feedbackChan {
		_ = s.Send(r)
	}
}

func handleOK(s stream, reqs []Response) {
	feedbackChan := make(chan Response, 100)
	go drainAll(s, feedbackChan)
	for _, r := range reqs {
		feedbackChan <- r // ok: the receiver drains until the channel is closed
	}
	close(feedbackChan)
}

func handleClosureBad(ctx context.Context, s stream, reqs []Response) {
	out := make(chan Response)
	go func() {
		for {
			select {
			case r := <-out:
				_ = s.Send(r)
			case <-ctx.Done():
				return
			}
		}
	}()
	for _, r := range reqs {
		out <- r // want `send on out \(chan Response, unbuffered\) can block forever: its receiver the function literal in handleClosureBad can return before draining it`
	}
}

func handleOneValueOK(s stream) {
	out := make(chan Response)
	go func() {
		r := <-out
		_ = s.Send(r)
	}()
	out <- Response{} // ok: one value, one receive on every path
}

func transfer(target string, doneCh chan<- error) {
	if target == "" {
		doneCh <- context.Canceled // ok: one value on every path, into a buffer of one
		return
	}
	doneCh <- nil // ok: as above
}

// handOffOK either answers the request itself or hands it to a goroutine
// that answers it: one value either way, and the waiter takes one.
func handOffOK(ctx context.Context, target string) {
	doneCh := make(chan error, 1)
	go func() {
		select {
		case <-ctx.Done():
			<-doneCh
		case err := <-doneCh:
			_ = err
		}
	}()
	if target == "self" {
		doneCh <- nil // ok: this path starts no other sender
		return
	}
	go transfer(target, doneCh)
}

// streamHandler reads requests on a goroutine of its own and processes
// them in a loop it calls and waits for. The loop returns when the server
// stops; the handler returns with it, and the reader, holding the next
// request, blocks forever.
type xdsServer struct{ done chan struct{} }

func (s *xdsServer) streamHandlerBad(recv func() (string, error)) {
	reqs := make(chan string)
	go func() {
		for {
			req, err := recv()
			if err != nil {
				return
			}
			reqs <- req // want `send on reqs \(chan string, unbuffered\) can block forever: its receiver \(\*xdsServer\).process can return before draining it`
		}
	}()
	s.process(reqs)
}

func (s *xdsServer) process(reqs <-chan string) {
	for {
		select {
		case r := <-reqs:
			println(r)
		case <-s.done:
			return
		}
	}
}
