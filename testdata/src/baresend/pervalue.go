package baresend

import "context"

// A pub/sub router opens one outgoing stream per peer. Each stream's
// writer gets a hello slot with room for one message, and the router's
// loop receives the stream once and says hello once: each slot gets one
// value, so the send cannot block, even after the writer has gone.

// outStream is one peer's new stream as the router's loop receives it.
type outStream struct {
	peer  string
	hello chan string
}

type router struct {
	newStreams chan outStream
}

func newRouter() *router { return &router{newStreams: make(chan outStream)} }

func (r *router) openStream(ctx context.Context, peer string) {
	hello := make(chan string, 1)
	go streamWriter(ctx, hello)
	select {
	case r.newStreams <- outStream{peer: peer, hello: hello}:
	case <-ctx.Done():
	}
}

// streamWriter writes the hello, then gives up when the stream's context
// ends.
func streamWriter(ctx context.Context, hello chan string) {
	select {
	case msg := <-hello:
		_ = msg
	case <-ctx.Done():
		return
	}
}

func (r *router) loop(ctx context.Context) {
	for {
		select {
		case s := <-r.newStreams:
			s.hello <- "hello " + s.peer // ok: one value per slot, made with room for one
		case <-ctx.Done():
			return
		}
	}
}

// greetStream is a stream whose hello slot the router's loop fills twice:
// the second send waits for the writer, which may have gone.
type greetStream struct {
	peer  string
	hello chan string
}

type greeter struct {
	newStreams chan greetStream
}

func newGreeter() *greeter { return &greeter{newStreams: make(chan greetStream)} }

func (g *greeter) openStream(ctx context.Context, peer string) {
	hello := make(chan string, 1)
	go streamWriter(ctx, hello)
	select {
	case g.newStreams <- greetStream{peer: peer, hello: hello}:
	case <-ctx.Done():
	}
}

func (g *greeter) loop(ctx context.Context) {
	for {
		select {
		case s := <-g.newStreams:
			s.hello <- "hello " + s.peer // want `send on s.hello \(chan string, cap 1\) can block forever: its receiver streamWriter can stop receiving`
			s.hello <- "subscriptions"   // want `send on s.hello \(chan string, cap 1\) can block forever: its receiver streamWriter can stop receiving`
		case <-ctx.Done():
			return
		}
	}
}

// keptStream is a stream the router's loop keeps in its peer table and
// announces to on every subscription: the slot gets one value per
// announcement, not one per stream.
type keptStream struct {
	peer  string
	hello chan string
}

type announcer struct {
	newStreams chan keptStream
	announce   chan string
	streams    map[string]keptStream
}

func newAnnouncer() *announcer {
	return &announcer{newStreams: make(chan keptStream), announce: make(chan string), streams: make(map[string]keptStream)}
}

func (a *announcer) openStream(ctx context.Context, peer string) {
	hello := make(chan string, 1)
	go streamWriter(ctx, hello)
	select {
	case a.newStreams <- keptStream{peer: peer, hello: hello}:
	case <-ctx.Done():
	}
}

func (a *announcer) loop(ctx context.Context) {
	for {
		select {
		case s := <-a.newStreams:
			a.streams[s.peer] = s
		case topic := <-a.announce:
			for _, s := range a.streams {
				s.hello <- topic // want `send on s.hello \(chan string, cap 1\) can block forever: its receiver streamWriter can stop receiving`
			}
		case <-ctx.Done():
			return
		}
	}
}

// mirroredStream is handed to two loops, the router's and a monitor's,
// and each says hello: two values for a slot with room for one.
type mirroredStream struct {
	peer  string
	hello chan string
}

type mirror struct {
	newStreams chan mirroredStream
	monitor    chan mirroredStream
}

func newMirror() *mirror {
	return &mirror{newStreams: make(chan mirroredStream), monitor: make(chan mirroredStream)}
}

func (m *mirror) openStream(ctx context.Context, peer string) {
	hello := make(chan string, 1)
	go streamWriter(ctx, hello)
	s := mirroredStream{peer: peer, hello: hello}
	for _, c := range []chan mirroredStream{m.newStreams, m.monitor} {
		select {
		case c <- s:
		case <-ctx.Done():
			return
		}
	}
}

func (m *mirror) loop(ctx context.Context) {
	for {
		select {
		case s := <-m.newStreams:
			s.hello <- "hello " + s.peer // want `send on s.hello \(chan string, cap 1\) can block forever: its receiver streamWriter can stop receiving`
		case s := <-m.monitor:
			s.hello <- "watched by " + s.peer // want `send on s.hello \(chan string, cap 1\) can block forever: its receiver streamWriter can stop receiving`
		case <-ctx.Done():
			return
		}
	}
}

// sinkHub's configure makes one reply slot per call and offers the
// request in a loop that sets its channel to nil once the request is
// taken: the request, and so the slot, is handed on once, and the hub's
// one reply per request finds room even after configure has given up.
type sinkRequest struct {
	sink  string
	reply chan error
}

type sinkHub struct {
	adds   chan sinkRequest
	events chan string
	closed chan struct{}
	sinks  []string
}

func newSinkHub() *sinkHub {
	h := &sinkHub{adds: make(chan sinkRequest), events: make(chan string), closed: make(chan struct{})}
	go h.run()
	return h
}

func (h *sinkHub) run() {
	defer close(h.closed)
	for {
		select {
		case req := <-h.adds:
			h.sinks = append(h.sinks, req.sink)
			req.reply <- nil // ok: one reply into the slot made for this request
		case e, ok := <-h.events:
			if !ok {
				return
			}
			_ = e
		}
	}
}

func (h *sinkHub) configure(ch chan sinkRequest, sink string) error {
	reply := make(chan error, 1)
	for {
		select {
		case ch <- sinkRequest{sink: sink, reply: reply}:
			ch = nil
		case err := <-reply:
			return err
		case <-h.closed:
			return nil
		}
	}
}

func (h *sinkHub) Add(sink string) error { return h.configure(h.adds, sink) }

// retryHub offers its request again after each tick, whether or not it was
// taken: one call can hand the same slot on twice, and the second reply
// finds it full.
type retryRequest struct {
	sink  string
	reply chan error
}

type retryHub struct {
	adds   chan retryRequest
	events chan string
	closed chan struct{}
	tick   chan struct{}
}

func newRetryHub() *retryHub {
	h := &retryHub{adds: make(chan retryRequest), events: make(chan string), closed: make(chan struct{}), tick: make(chan struct{})}
	go h.run()
	return h
}

func (h *retryHub) run() {
	defer close(h.closed)
	for {
		select {
		case req := <-h.adds:
			req.reply <- nil // want `send on req\.reply \(chan error, cap 1\) can block forever`
		case e, ok := <-h.events:
			if !ok {
				return
			}
			_ = e
		}
	}
}

func (h *retryHub) configure(ch chan retryRequest, sink string) error {
	reply := make(chan error, 1)
	for {
		select {
		case ch <- retryRequest{sink: sink, reply: reply}:
		case <-h.tick:
			ch = h.adds
		case err := <-reply:
			return err
		case <-h.closed:
			return nil
		}
	}
}

func (h *retryHub) Add(sink string) error { return h.configure(h.adds, sink) }
