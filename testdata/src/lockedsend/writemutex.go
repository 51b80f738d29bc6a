package lockedsend

import (
	"sync"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
)

// auditUpload streams one call's audit records to the collector. Several
// goroutines of the call write records, and mu only keeps their Sends
// apart: every one of them waits for the collector's flow control with or
// without the lock, which guards nothing else. Audited.
type auditUpload struct {
	mu     sync.Mutex
	stream grpc.ClientStreamingClient[Msg, Msg]
}

func (u *auditUpload) record(m *Msg) error {
	u.mu.Lock()
	err := u.stream.Send(m) // want `stream send u\.stream\.Send can block while u\.mu is held.*\[audit: u\.mu is only ever held to call the client stream stream: every goroutine that waits for it waits for the same server anyway\]`
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
	return t.stream.Send(m) // want `stream send t\.stream\.Send can block while t\.mu is held.*\[audit: t\.mu is only ever held to call the client stream`
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
// other than the stream's is made while it is held. Reported.
type metricsLog struct {
	mu     sync.Mutex
	stream grpc.ClientStreamingClient[Msg, Msg]
}

func (m *metricsLog) ship(x *Msg) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	note("shipping")
	return m.stream.Send(x) // want `stream send m\.stream\.Send can block while m\.mu is held: every goroutine that needs m\.mu waits for the peer to read$`
}

func note(string) {}

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
