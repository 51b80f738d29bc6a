package singlesender

import "sync"

// runner runs a function somewhere the package cannot see.
type runner interface{ Run(func()) }

// UnknownCalleeOK hands a closure to an interface method: by policy it runs
// on the handler's goroutine, which makes one sender, not two.
func (s *Server) UnknownCalleeOK(r runner, stream Chat_Server) error {
	r.Run(func() { stream.Send(&Response{Status: "ran"}) }) // ok: presumed to run here
	return stream.Send(&Response{Status: "done"})           // ok: the same goroutine
}

// hooks is called by code the package does not show.
type hooks struct {
	mu      sync.Mutex
	onEvent func(*Response)
}

// CallbackBad keeps a closure that sends for later callers, and sends
// itself too.
func (s *Server) CallbackBad(h *hooks, stream Chat_Server) error {
	h.mu.Lock()
	h.onEvent = func(r *Response) {
		stream.Send(r) // want `stream\.Send is called in a closure that escapes at policy\.go:\d+ to be called later, but Server\.CallbackBad sends on it from its own goroutine`
	}
	h.mu.Unlock()
	return stream.Send(&Response{Status: "subscribed"})
}

// CallbackOnlyOK keeps a closure that sends and never sends itself: the
// closure's caller is the one sender the package can see.
func (s *Server) CallbackOnlyOK(h *hooks, stream Chat_Server) error {
	h.mu.Lock()
	h.onEvent = func(r *Response) { stream.Send(r) } // ok: the only sender
	h.mu.Unlock()
	_, err := stream.Recv()
	return err
}

// FuncValueOK passes the stream to a func value, which the pass does not
// follow.
func (s *Server) FuncValueOK(forward func(Chat_Server) error, stream Chat_Server) error {
	go forward(stream)                            // ok: what forward does is unknown
	return stream.Send(&Response{Status: "done"}) // ok: the only sender the pass can see
}

// JoinedBeforeSendIgnored sends after the sender goroutine has finished,
// which the pass does not see: the finding is suppressed with its reason.
func (s *Server) JoinedBeforeSendIgnored(stream Chat_Server) error {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		stream.Send(&Response{Status: "working"})
	}()
	wg.Wait()
	//sendlint:ignore singlesender the sender goroutine has exited: wg.Wait above
	return stream.Send(&Response{Status: "done"})
}

// client holds its stream in its own field: its exported methods are its
// API, and their caller decides the goroutine.
type client struct {
	stream ChatClientStream
}

func (c *client) Connect(cl Chat_Client) error {
	stream, err := cl.Chat()
	if err != nil {
		return err
	}
	c.stream = stream
	return c.Hello()
}

func (c *client) Hello() error {
	return c.stream.Send(&Request{}) // ok: the client's caller decides the goroutine
}

// broadcaster has one goroutine, started once, that sends on every stored
// stream; the handlers only store and receive.
type broadcaster struct {
	mu      sync.Mutex
	streams []Chat_Server
	msgs    chan *Response
}

func NewBroadcaster() *broadcaster {
	b := &broadcaster{msgs: make(chan *Response, 64)}
	go b.loop()
	return b
}

func (b *broadcaster) loop() {
	for m := range b.msgs {
		b.mu.Lock()
		for _, st := range b.streams {
			st.Send(m) // ok: the only goroutine that sends on them
		}
		b.mu.Unlock()
	}
}

func (b *broadcaster) Join(stream Chat_Server) error {
	b.mu.Lock()
	b.streams = append(b.streams, stream)
	b.mu.Unlock()
	for {
		if _, err := stream.Recv(); err != nil {
			return err
		}
	}
}

// Announce tells every member about a newcomer from the caller's goroutine,
// while loop is the streams' sender.
func (b *broadcaster) Announce(name string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, st := range b.streams {
		st.Send(&Response{Status: name + " joined"}) // want `st\.Send is called from broadcaster\.Announce, which any goroutine may call, but broadcaster\.loop's goroutine, started at policy\.go:\d+, is the stream's sender`
	}
}
