// Package svc uses the real grpc and connect generic stream types: each
// line singlesender reports carries a want comment.
package svc

import (
	"context"
	"errors"
	"io"

	"google.golang.org/grpc"
)

type Note struct{ Text string }

type Summary struct{ Count int }

type ChatServer struct {
	stopChan chan struct{}
}

// feedback is the designated sender of a Chat stream.
func (s *ChatServer) feedback(stream grpc.BidiStreamingServer[Note, Note], out <-chan *Note) {
	for n := range out {
		if stream.Send(n) != nil {
			return
		}
	}
}

func (s *ChatServer) Chat(stream grpc.BidiStreamingServer[Note, Note]) error {
	out := make(chan *Note, 16)
	go s.feedback(stream, out)
	for {
		in, err := stream.Recv()
		if err != nil {
			return err
		}
		select {
		case <-s.stopChan:
			return stream.Send(&Note{Text: "stopping"}) // want `stream\.Send is called on ChatServer\.Chat's goroutine, but ChatServer\.feedback's goroutine, started at grpcsvc\.go:\d+, is the stream's sender`
		default:
		}
		out <- in
	}
}

func (s *ChatServer) ChatOK(stream grpc.BidiStreamingServer[Note, Note]) error {
	out := make(chan *Note, 16)
	go s.feedback(stream, out)
	for {
		in, err := stream.Recv()
		if err != nil {
			close(out)
			return err
		}
		out <- in
	}
}

func (s *ChatServer) List(_ *Note, stream grpc.ServerStreamingServer[Note]) error {
	for i := range 3 {
		if err := stream.Send(&Note{Text: string(rune('a' + i))}); err != nil { // ok: the handler is the only sender
			return err
		}
	}
	return nil
}

func (s *ChatServer) Record(stream grpc.ClientStreamingServer[Note, Summary]) error {
	n := 0
	for {
		_, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return stream.SendAndClose(&Summary{Count: n}) // ok: the handler is the only sender
		}
		if err != nil {
			return err
		}
		n++
	}
}

// ChatClient sends from one goroutine and receives on another, which grpc
// allows.
func ChatClient(ctx context.Context, open func(context.Context) (grpc.BidiStreamingClient[Note, Note], error), notes []*Note) error {
	stream, err := open(ctx)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		for _, n := range notes {
			if err := stream.Send(n); err != nil { // ok: the only sender
				done <- err
				return
			}
		}
		done <- stream.CloseSend()
	}()
	for {
		if _, err := stream.Recv(); err != nil {
			<-done
			return err
		}
	}
}

// UploadTwice starts two senders on one client stream.
func UploadTwice(ctx context.Context, open func(context.Context) (grpc.ClientStreamingClient[Note, Summary], error)) error {
	stream, err := open(ctx)
	if err != nil {
		return err
	}
	errc := make(chan error, 2)
	go func() { errc <- stream.Send(&Note{Text: "a"}) }() // want `stream\.Send is called in the goroutine started at grpcsvc\.go:\d+, but the goroutine started at grpcsvc\.go:\d+, sends on it too`
	go func() { errc <- stream.Send(&Note{Text: "b"}) }() // want `stream\.Send is called in the goroutine started at grpcsvc\.go:\d+, but the goroutine started at grpcsvc\.go:\d+, is the stream's sender`
	return errors.Join(<-errc, <-errc)
}
