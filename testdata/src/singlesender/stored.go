package singlesender

import (
	"sync"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
)

// Hub keeps one attached session per peer, reused across reconnects.
type Hub struct {
	mu       sync.Mutex
	sessions map[string]*session
	streams  map[string]Chat_Server
}

// session is a peer's attachment. Its send is set by attach and called by
// whoever wants to talk to the peer: the stored-Send shape of the runner hub.
type session struct {
	mu   sync.Mutex
	send func(*Response) error
}

func (h *Hub) session(id string) *session {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessions[id]
	if s == nil {
		s = new(session)
		h.sessions[id] = s
	}
	return s
}

func (s *session) attach(send func(*Response) error) {
	s.mu.Lock()
	s.send = send
	s.mu.Unlock()
}

func (h *Hub) Attach(id string, stream *connect.BidiStream[Request, Response]) error {
	h.session(id).attach(stream.Send)
	for {
		if _, err := stream.Receive(); err != nil {
			return err
		}
	}
}

// Notify may be called by any goroutine: each call sends on the peer's
// stream from the caller's goroutine.
func (h *Hub) Notify(id string, r *Response) error {
	s := h.session(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.send(r) // want `s\.send, which holds stream\.Send taken at stored\.go:\d+, is called from Hub\.Notify, which any goroutine may call: a stream must have a single sending goroutine`
}

// Chat keeps every client's stream in a map and relays each message to all
// of them from its own goroutine: every handler sends on every stream.
func (h *Hub) Chat(id string, stream Chat_Server) error {
	h.mu.Lock()
	h.streams[id] = stream
	h.mu.Unlock()
	for {
		req, err := stream.Recv()
		if err != nil {
			return err
		}
		h.mu.Lock()
		for _, peer := range h.streams {
			peer.Send(&Response{ID: req.ID}) // want `peer\.Send is called from Hub\.Chat, which any goroutine may call`
		}
		h.mu.Unlock()
	}
}

// call is a per-RPC struct that carries the stream; only the handler that
// made it uses it.
type call struct {
	stream Chat_Server
	n      int
}

func (c *call) reply(r *Response) error {
	c.n++
	return c.stream.Send(r) // ok: c is the handler's own
}

func (h *Hub) PerCallOK(stream Chat_Server) error {
	c := &call{stream: stream}
	for {
		req, err := stream.Recv()
		if err != nil {
			return err
		}
		if err := c.reply(&Response{ID: req.ID}); err != nil {
			return err
		}
	}
}

// conn carries a client stream and its one sender goroutine, the shape of
// the router's batcher streams.
type conn struct {
	stream  ChatClientStream
	pending chan *Request
}

func Dial(c Chat_Client) (*conn, error) {
	stream, err := c.Chat()
	if err != nil {
		return nil, err
	}
	cn := &conn{stream: stream, pending: make(chan *Request, 64)}
	go cn.sendLoop()
	go cn.recvLoop()
	return cn, nil
}

func (cn *conn) sendLoop() {
	for r := range cn.pending {
		cn.stream.Send(r) // ok: the only sender
	}
}

func (cn *conn) recvLoop() {
	for {
		if _, err := cn.stream.Recv(); err != nil {
			return
		}
	}
}

// loggedStream wraps a stream to log what it sends; its SendMsg is called
// by whoever holds the wrapper.
type loggedStream struct {
	grpc.ServerStream
	sent int
}

func (l *loggedStream) SendMsg(m any) error {
	l.sent++
	return l.ServerStream.SendMsg(m) // ok: a wrapper delegates
}

func Intercept(srv any, ss grpc.ServerStream, handler func(any, grpc.ServerStream) error) error {
	return handler(srv, &loggedStream{ServerStream: ss})
}
