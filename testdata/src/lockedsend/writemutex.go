package lockedsend

import (
	"errors"
	"sync"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
)

// auditUpload streams one call's audit records to the collector. Several
// goroutines of the call write records, and mu only keeps their Sends
// apart: every one of them waits for the collector's flow control with or
// without the lock. Audited.
type auditUpload struct {
	mu     sync.Mutex
	stream grpc.ClientStreamingClient[Msg, Msg]
}

func (u *auditUpload) record(m *Msg) error {
	u.mu.Lock()
	err := u.stream.Send(m) // want `stream send u\.stream\.Send can block while u\.mu is held.*\[audit: u\.mu is held only to use the client stream stream: every goroutine that waits for it is on its way to the same server\]`
	u.mu.Unlock()
	return err
}

func (u *auditUpload) finish() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.stream.CloseSend()
}

// tracePush is the same shape on a connect client stream.
type tracePush struct {
	mu     sync.Mutex
	stream *connect.BidiStreamForClient[Msg, Msg]
}

func (t *tracePush) push(m *Msg) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stream.Send(m) // want `stream send t\.stream\.Send can block while t\.mu is held.*\[audit: t\.mu is held only to use the client stream`
}

// leaseClient holds its mutex across the Send and also keeps the last
// lease under it: the goroutine that reads renewals needs mu to record
// one, so a server that stops reading stops the renewals too. Reported.
type leaseClient struct {
	mu     sync.Mutex
	stream grpc.BidiStreamingClient[Msg, Msg]
	last   *Msg
}

func (l *leaseClient) renew(m *Msg) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stream.Send(m) // want `stream send l\.stream\.Send can block while l\.mu is held: every goroutine that needs l\.mu waits for the peer to read$`
}

func (l *leaseClient) recordRenewal(m *Msg) {
	l.mu.Lock()
	l.last = m
	l.mu.Unlock()
}

// metricsLog holds its mutex across the Send and logs under it: a call
// that is not the stream's, but everyone who takes mu still takes it to
// ship on the stream. Audited.
type metricsLog struct {
	mu     sync.Mutex
	stream grpc.ClientStreamingClient[Msg, Msg]
}

func (m *metricsLog) ship(x *Msg) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	note("shipping")
	return m.stream.Send(x) // want `stream send m\.stream\.Send can block while m\.mu is held.*\[audit: m\.mu is held only to use the client stream stream`
}

func note(string) {}

// configWatch is a discovery client: Fetch waits for the next snapshot
// and Ack or Nack answers it, all under mu, which also keeps the nonce of
// the snapshot being answered. Each of them takes mu to use the one call
// to the control plane, Ack and Nack through send, so whoever waits for
// mu is on its way to the same server. Audited.
type configWatch struct {
	mu       sync.Mutex
	stream   grpc.BidiStreamingClient[Msg, Msg]
	received *Msg
	acked    *Msg
}

func (w *configWatch) Fetch() (*Msg, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stream == nil {
		return nil, errNotStarted
	}
	m, err := w.stream.Recv()
	if err != nil {
		return nil, err
	}
	w.received = m
	return m, nil
}

func (w *configWatch) Ack() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.acked = w.received
	return w.send(w.acked) // want `call to w\.send can block while w\.mu is held.*\[audit: w\.mu is held only to use the client stream stream`
}

func (w *configWatch) Nack() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.send(w.received)
}

func (w *configWatch) send(m *Msg) error {
	if w.stream == nil {
		return errNotStarted
	}
	return w.stream.Send(m)
}

var errNotStarted = errors.New("not started")

// exportClient ships spans under mu, and Pending reads the queue length
// under mu through a helper that never touches the stream: a dashboard
// that asks for it waits for the collector to read. Reported.
type exportClient struct {
	mu      sync.Mutex
	stream  grpc.ClientStreamingClient[Msg, Msg]
	pending []*Msg
}

func (e *exportClient) export(m *Msg) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stream.Send(m) // want `stream send e\.stream\.Send can block while e\.mu is held: every goroutine that needs e\.mu waits for the peer to read$`
}

func (e *exportClient) Pending() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.queued()
}

func (e *exportClient) queued() int { return len(e.pending) }

// subscriberConn is the server side: a hub's lock around one subscriber's
// Send makes every caller that serves other subscribers wait on this one,
// even when the lock guards nothing else. Reported.
type subscriberConn struct {
	mu     sync.Mutex
	stream grpc.ServerStreamingServer[Msg]
}

func (s *subscriberConn) deliver(m *Msg) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stream.Send(m) // want `stream send s\.stream\.Send can block while s\.mu is held: every goroutine that needs s\.mu waits for the peer to read$`
}
