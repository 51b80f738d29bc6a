package lockedsend

import (
	"sync"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
)

type Msg struct{}

func grpcSendBad(mu *sync.Mutex, s grpc.ServerStreamingServer[Msg]) error {
	mu.Lock()
	defer mu.Unlock()
	return s.Send(&Msg{}) // want `stream send s\.Send can block while mu is held: every goroutine that needs mu waits for the peer to read`
}

func connectSendBad(mu *sync.Mutex, s *connect.BidiStream[Msg, Msg]) error {
	mu.Lock()
	defer mu.Unlock()
	return s.Send(&Msg{}) // want `stream send s\.Send can block while mu is held`
}

func receiveUnderLockOK(mu *sync.Mutex, s *connect.BidiStream[Msg, Msg]) error {
	mu.Lock()
	defer mu.Unlock()
	_, err := s.Receive()
	return err
}

// feed keeps a subscriber's Send in a field, as a hub keeps a Runner's.
type feed struct {
	mu   sync.Mutex
	send func(*Msg) error
}

func (f *feed) attach(s *connect.ServerStream[Msg]) {
	f.mu.Lock()
	f.send = s.Send
	f.mu.Unlock()
}

func (f *feed) publishBad() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.send(&Msg{}) // want `stream send through f\.send \(holds s\.Send, taken at streams\.go:\d+\) can block while f\.mu is held`
}

func (f *feed) publishOK() error {
	f.mu.Lock()
	send := f.send
	f.mu.Unlock()
	return send(&Msg{})
}

// sendVia's parameter holds a Send: its one caller passes one.
func sendVia(mu *sync.Mutex, send func(*Msg) error) error {
	mu.Lock()
	defer mu.Unlock()
	return send(&Msg{}) // want `stream send through send \(holds s\.Send, taken at streams\.go:\d+\) can block while mu is held`
}

func passesSend(mu *sync.Mutex, s *connect.ServerStream[Msg]) error {
	return sendVia(mu, s.Send)
}

// A callback whose value no caller fills with a Send is unknown, and
// taken not to block.
func callbackOK(mu *sync.Mutex, cb func(*Msg) error) error {
	mu.Lock()
	defer mu.Unlock()
	return cb(&Msg{})
}
