// Package singlesender holds one file per rule of the singlesender pass,
// each positive beside the negative that differs from it by the rule.
package singlesender

import (
	"errors"

	"google.golang.org/grpc"
)

type Request struct{ ID int }

type Response struct {
	ID     int
	Status string
}

// Broadcast_Server is a stream as old protoc-gen-go-grpc declares it.
type Broadcast_Server interface {
	Send(*Response) error
	Recv() (*Request, error)
	grpc.ServerStream
}

// Chat_Server is a stream as new protoc-gen-go-grpc declares it.
type Chat_Server = grpc.BidiStreamingServer[Request, Response]

var errStopped = errors.New("server stopped")

type Server struct {
	stopChan chan struct{}
}

// feedback is the stream's designated sender: the goroutine started with
// it, draining the replies the handler queues.
func (s *Server) feedback(stream Broadcast_Server, replies <-chan *Response) {
	for r := range replies {
		if err := stream.Send(r); err != nil { // ok: the designated sender
			return
		}
	}
}

func (s *Server) StopBranchBad(stream Broadcast_Server) error {
	replies := make(chan *Response, 16)
	go s.feedback(stream, replies)
	for {
		req, err := stream.Recv()
		if err != nil {
			return err
		}
		select {
		case <-s.stopChan:
			return stream.Send(&Response{ID: req.ID, Status: "stopped"}) // want `stream\.Send is called on Server\.StopBranchBad's goroutine, but Server\.feedback's goroutine, started at designated\.go:\d+, is the stream's sender: a stream must have a single sending goroutine`
		default:
		}
		replies <- &Response{ID: req.ID}
	}
}

func (s *Server) StopBranchOK(stream Broadcast_Server) error {
	replies := make(chan *Response, 16)
	go s.feedback(stream, replies)
	for {
		req, err := stream.Recv() // ok: receiving on the handler while feedback sends
		if err != nil {
			return err
		}
		select {
		case <-s.stopChan:
			replies <- &Response{ID: req.ID, Status: "stopped"} // ok: the reply goes through the sender
			return errStopped
		default:
		}
		replies <- &Response{ID: req.ID}
	}
}

func (s *Server) HelloBeforeStartOK(stream Broadcast_Server) error {
	if err := stream.Send(&Response{Status: "hello"}); err != nil { // ok: sent before the sender starts
		return err
	}
	replies := make(chan *Response, 16)
	go s.feedback(stream, replies)
	for {
		req, err := stream.Recv()
		if err != nil {
			return err
		}
		replies <- &Response{ID: req.ID}
	}
}

func (s *Server) RefuseInsteadOfStartOK(stream Broadcast_Server, full bool) error {
	if full {
		return stream.Send(&Response{Status: "full"}) // ok: this branch never starts the sender
	}
	replies := make(chan *Response, 16)
	go s.feedback(stream, replies)
	return s.pump(stream, replies)
}

func (s *Server) pump(stream Broadcast_Server, replies chan<- *Response) error {
	for {
		req, err := stream.Recv()
		if err != nil {
			return err
		}
		replies <- &Response{ID: req.ID}
	}
}

func (s *Server) HelperAfterStartBad(stream Broadcast_Server) error {
	replies := make(chan *Response, 16)
	go s.feedback(stream, replies)
	if _, err := stream.Recv(); err != nil {
		return s.fail(stream, err) // want `s\.fail, which sends on stream at designated\.go:\d+, is called on Server\.HelperAfterStartBad's goroutine, but Server\.feedback's goroutine`
	}
	return nil
}

func (s *Server) fail(stream Broadcast_Server, err error) error {
	return stream.Send(&Response{Status: err.Error()})
}

func (s *Server) DeferredGoodbyeBad(stream Broadcast_Server) error {
	defer stream.Send(&Response{Status: "bye"}) // want `stream\.Send is called on Server\.DeferredGoodbyeBad's goroutine, but Server\.feedback's goroutine`
	replies := make(chan *Response, 16)
	go s.feedback(stream, replies)
	return s.pump(stream, replies)
}

func (s *Server) EitherSenderOK(stream Broadcast_Server, batch bool) error {
	replies := make(chan *Response, 16)
	if batch {
		go s.feedback(stream, replies)
	} else {
		go s.feedbackOneByOne(stream, replies) // ok: the branches exclude each other
	}
	return s.pump(stream, replies)
}

func (s *Server) feedbackOneByOne(stream Broadcast_Server, replies <-chan *Response) {
	for r := range replies {
		stream.Send(r)
	}
}
