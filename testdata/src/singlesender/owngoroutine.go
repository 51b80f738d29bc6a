package singlesender

import (
	"io"
	"sync"
)

// A handler that starts no goroutine for its stream is its only sender,
// however many places in it send.
func (s *Server) OwnGoroutineOK(stream Chat_Server) error {
	var once sync.Once
	hello := func() { stream.Send(&Response{Status: "hello"}) } // ok: called on the handler's goroutine
	defer stream.Send(&Response{Status: "bye"})                 // ok: the handler's own goroutine
	for {
		req, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		once.Do(hello)
		if err := s.reply(stream, req); err != nil {
			return err
		}
		forEach([]int{1, 2}, func(n int) { stream.Send(&Response{ID: n}) }) // ok: forEach calls it on this goroutine
	}
}

func (s *Server) reply(stream Chat_Server, req *Request) error {
	return stream.Send(&Response{ID: req.ID}) // ok: reached only from the handler's goroutine
}

func forEach(xs []int, f func(int)) {
	for _, x := range xs {
		f(x)
	}
}

// Send and Recv on different goroutines is what grpc and connect allow:
// one goroutine may send while another receives.
func (s *Server) SendAndRecvApartOK(stream Chat_Server) error {
	reqs := make(chan *Request, 16)
	go func() {
		defer close(reqs)
		for {
			req, err := stream.Recv() // ok: a receive
			if err != nil {
				return
			}
			reqs <- req
		}
	}()
	for req := range reqs {
		if err := stream.Send(&Response{ID: req.ID}); err != nil { // ok: the only sender
			return err
		}
	}
	return nil
}

// OneStartedSenderOK sends only from the goroutine it starts.
func (s *Server) OneStartedSenderOK(stream Chat_Server) error {
	replies := make(chan *Response, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for r := range replies {
			stream.Send(r) // ok: the only sender
		}
	}()
	for {
		req, err := stream.Recv()
		if err != nil {
			close(replies)
			<-done
			return err
		}
		replies <- &Response{ID: req.ID}
	}
}
