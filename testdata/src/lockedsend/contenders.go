package lockedsend

import (
	"sync"

	"google.golang.org/grpc"
)

// gaugeServer streams every gauge to a metrics client while it holds the
// read lock. Get reads under the read lock as well and waits for no one;
// the five methods that change the set take the lock for writing, so
// each of them waits for the slowest metrics client, and every reader
// waits behind them. The finding points at the writers.
type gaugeServer struct {
	mu     sync.RWMutex
	gauges map[string]*Msg
}

// newGaugeServer locks an object nobody else can see yet: no contender.
func newGaugeServer() *gaugeServer {
	s := &gaugeServer{gauges: map[string]*Msg{}}
	s.mu.Lock()
	s.gauges["up"] = &Msg{}
	s.mu.Unlock()
	return s
}

func (s *gaugeServer) All(stream grpc.ServerStreamingServer[Msg]) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, g := range s.gauges {
		if err := stream.Send(g); err != nil { // want `stream send stream\.Send can block while s\.mu is held: every goroutine that needs s\.mu for writing, and every reader after it, waits for the peer to read$`
			return err
		}
	}
	return nil
}

func (s *gaugeServer) Get(name string) *Msg {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.gauges[name]
}

func (s *gaugeServer) Create(name string) { s.set(name, &Msg{}) }

func (s *gaugeServer) set(name string, m *Msg) {
	s.mu.Lock()
	s.gauges[name] = m
	s.mu.Unlock()
}

func (s *gaugeServer) Drop(name string) {
	s.mu.Lock()
	delete(s.gauges, name)
	s.mu.Unlock()
}

func (s *gaugeServer) Rename(from, to string) {
	s.mu.Lock()
	s.gauges[to] = s.gauges[from]
	delete(s.gauges, from)
	s.mu.Unlock()
}

func (s *gaugeServer) Reset() {
	s.mu.Lock()
	s.gauges = map[string]*Msg{}
	s.mu.Unlock()
}

func (s *gaugeServer) Close() {
	s.mu.Lock()
	s.gauges = nil
	s.mu.Unlock()
}
