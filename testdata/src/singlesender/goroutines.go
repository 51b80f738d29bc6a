package singlesender

import (
	"sync"
	"time"

	"google.golang.org/grpc"
)

func (s *Server) TwoSendersBad(stream Chat_Server) error {
	results := make(chan *Response, 16)
	heartbeats := time.NewTicker(time.Second)
	go func() {
		for r := range results {
			stream.Send(r) // want `stream\.Send is called in the goroutine started at goroutines\.go:13, but the goroutine started at goroutines\.go:18, sends on it too: a stream must have a single sending goroutine`
		}
	}()
	go func() {
		for range heartbeats.C {
			stream.Send(&Response{Status: "alive"}) // want `stream\.Send is called in the goroutine started at goroutines\.go:\d+, but the goroutine started at goroutines\.go:\d+, is the stream's sender`
		}
	}()
	return s.pump2(stream, results)
}

func (s *Server) pump2(stream Chat_Server, results chan<- *Response) error {
	for {
		req, err := stream.Recv()
		if err != nil {
			return err
		}
		results <- &Response{ID: req.ID}
	}
}

func (s *Server) GoroutinePerRequestBad(stream Chat_Server) error {
	var mu sync.Mutex
	for {
		req, err := stream.Recv()
		if err != nil {
			return err
		}
		go func() {
			mu.Lock()
			defer mu.Unlock()
			stream.Send(&Response{ID: req.ID}) // want `stream\.Send is called in goroutines started in a loop at goroutines\.go:\d+: a stream must have a single sending goroutine`
		}()
	}
}

// GoroutinePerStreamOK opens one stream per peer and gives each its own
// sender: the stream is made in the same iteration as its goroutine.
func GoroutinePerStreamOK(clients []Chat_Client) {
	for _, c := range clients {
		stream, err := c.Chat()
		if err != nil {
			continue
		}
		go func() {
			stream.Send(&Request{}) // ok: one goroutine per stream
		}()
	}
}

type Chat_Client interface {
	Chat() (ChatClientStream, error)
}

type ChatClientStream interface {
	Send(*Request) error
	Recv() (*Response, error)
	grpc.ClientStream
}

func (s *Server) StartedByHelperBad(stream Chat_Server) error {
	startLater(func() {
		stream.Send(&Response{Status: "late"}) // ok: the designated sender, started by startLater
	})
	return stream.Send(&Response{Status: "now"}) // want `stream\.Send is called on Server\.StartedByHelperBad's goroutine, but the goroutine that startLater starts at goroutines\.go:\d+, is the stream's sender`
}

// startLater runs f on a goroutine of its own.
func startLater(f func()) { go f() }

func (s *Server) AfterFuncBad(stream Chat_Server) error {
	t := time.AfterFunc(time.Minute, func() {
		stream.Send(&Response{Status: "timeout"}) // ok: the designated sender, started by AfterFunc
	})
	defer t.Stop()
	return stream.Send(&Response{Status: "done"}) // want `stream\.Send is called on Server\.AfterFuncBad's goroutine, but the goroutine that time\.AfterFunc starts`
}

func (s *Server) WaitGroupTwoBad(stream Chat_Server) error {
	var wg sync.WaitGroup
	wg.Go(func() { stream.Send(&Response{ID: 1}) }) // want `stream\.Send is called in the goroutine that wg\.Go starts at goroutines\.go:\d+, but the goroutine that wg\.Go starts at goroutines\.go:\d+, sends on it too`
	wg.Go(func() { stream.Send(&Response{ID: 2}) }) // want `stream\.Send is called in the goroutine that wg\.Go starts at goroutines\.go:\d+, but the goroutine that wg\.Go starts at goroutines\.go:\d+, is the stream's sender`
	wg.Wait()
	return nil
}

// MarkedAndHeartbeatBad starts the marked sender and a heartbeat: the
// mark says which one is the sender, so only the heartbeat is reported.
func (s *Server) MarkedAndHeartbeatBad(stream Chat_Server) error {
	out := make(chan *Response, 16)
	go relay(stream, out) // ok: relay is the marked sender
	go func() {
		stream.Send(&Response{Status: "alive"}) // want `stream\.Send is called in the goroutine started at goroutines\.go:\d+, but relay is the stream's sender \(//sendlint:sender\)`
	}()
	return s.pump2(stream, out)
}
