package singlesender

import (
	"google.golang.org/grpc"

	"singlesender/lib"
)

func (s *Server) PumpAndReplyBad(stream Chat_Server) error {
	out := make(chan any, 16)
	lib.Pump(stream, out)                            // ok: the designated sender, started by lib.Pump
	return lib.Reply(stream, &Response{Status: "x"}) // want `lib\.Reply, which sends on stream, is called on Server\.PumpAndReplyBad's goroutine, but the goroutine that lib\.Pump starts at crosspkg\.go:\d+, is the stream's sender`
}

func (s *Server) ReplyFromOneGoroutineOK(stream Chat_Server) error {
	done := make(chan error, 1)
	go func() { done <- lib.Reply(stream, &Response{}) }() // ok: the only sender
	return <-done
}

func (s *Server) LibGoBad(stream Chat_Server) error {
	lib.Go(func() { stream.Send(&Response{ID: 1}) })                     // ok: the designated sender, started by lib.Go
	return lib.Do(func() error { return stream.Send(&Response{ID: 2}) }) // want `lib\.Do, which sends on stream at crosspkg\.go:\d+, is called on Server\.LibGoBad's goroutine, but the goroutine that lib\.Go starts`
}

func (s *Server) LibDoOK(stream Chat_Server) error {
	lib.Keep(func() { stream.Send(&Response{ID: 1}) })                   // ok: lib.Keep never calls it
	return lib.Do(func() error { return stream.Send(&Response{ID: 2}) }) // ok: lib.Do calls it here
}

func (s *Server) RegisterBad(stream grpc.ServerStream) error {
	lib.Register(stream.SendMsg) // want `lib\.Register stores stream\.SendMsg where any goroutine may send on it: a stream must have a single sending goroutine`
	return nil
}

func (s *Server) ConnOK(stream grpc.ServerStream) error {
	c := lib.NewConn(stream)
	return c.Send(&Response{}) // ok: a Conn's Send is its holder's to call
}
