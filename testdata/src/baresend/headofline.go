package baresend

import (
	"context"
	"reflect"
	"sync"
	"time"
)

// A multiplexed client: one receive loop reads every frame of the
// connection and hands it to its stream's one-slot buffer. The hand-off
// gives up only when that stream closes or the whole client does, so a
// stream whose caller keeps it open and stops reading holds the loop,
// and every other stream on the connection stalls behind it.
type muxFrame struct {
	streamID uint32
	payload  []byte
}

type muxStream struct {
	recv      chan *muxFrame
	recvClose chan struct{}
	recvErr   error
}

type muxClient struct {
	ctx     context.Context
	mu      sync.Mutex
	streams map[uint32]*muxStream
	frames  chan *muxFrame
}

func (c *muxClient) receiveLoop() {
	for {
		select {
		case <-c.ctx.Done():
			return
		case f := <-c.frames:
			c.mu.Lock()
			s := c.streams[f.streamID]
			c.mu.Unlock()
			if s == nil {
				continue
			}
			s.receive(c.ctx, f)
		}
	}
}

func (s *muxStream) receive(ctx context.Context, f *muxFrame) error {
	select {
	case <-s.recvClose:
		return s.recvErr
	case s.recv <- f: // want `send on s\.recv waits for as long as its consumer stays open and does not read, and \(\*muxClient\)\.receiveLoop, which hands every consumer its messages, waits with it: one consumer that stops reading stalls all the others$`
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Recv is how the stream's caller reads: it may stop calling while the
// stream stays open.
func (s *muxStream) Recv() (*muxFrame, error) {
	select {
	case f := <-s.recv:
		return f, nil
	case <-s.recvClose:
		return nil, s.recvErr
	}
}

// The server side: the connection's read loop looks each stream up by id
// and hands it the frame; the stream's context is its only way out, and
// the stream is also handed its first frame as it is set up.
type serverStream struct {
	ctx  context.Context
	recv chan []byte
}

func (s *serverStream) data(p []byte) error {
	select {
	case s.recv <- p: // want `send on s\.recv waits for as long as its consumer stays open and does not read, and the function literal in \(\*serverConn\)\.run, which hands every consumer its messages, waits with it`
		return nil
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

func (s *serverStream) Read() ([]byte, error) {
	select {
	case p := <-s.recv:
		return p, nil
	case <-s.ctx.Done():
		return nil, s.ctx.Err()
	}
}

type serverConn struct {
	streams sync.Map
	frames  chan *muxFrame
}

func (sc *serverConn) open(ctx context.Context, f *muxFrame) {
	s := &serverStream{ctx: ctx, recv: make(chan []byte, 5)}
	sc.streams.Store(f.streamID, s)
	s.data(f.payload)
}

func (sc *serverConn) run() {
	go func() {
		for f := range sc.frames {
			v, ok := sc.streams.Load(f.streamID)
			if !ok {
				continue
			}
			v.(*serverStream).data(f.payload)
		}
	}()
}

// Fixed: a stream that does not take its frame within a second is failed,
// and the loop goes on.
type timedStream struct {
	recv      chan *muxFrame
	recvClose chan struct{}
}

type timedClient struct {
	streams map[uint32]*timedStream
	frames  chan *muxFrame
}

func (c *timedClient) receiveLoop() {
	for f := range c.frames {
		c.streams[f.streamID].receive(f)
	}
}

func (s *timedStream) receive(f *muxFrame) bool {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case s.recv <- f: // ok: the timer bounds the wait
		return true
	case <-s.recvClose:
		return false
	case <-t.C:
		return false
	}
}

// One consumer for the whole loop: there is no one else to stall.
type singleSink struct {
	out  chan []byte
	done chan struct{}
}

func (s *singleSink) put(p []byte) {
	select {
	case s.out <- p: // ok: the loop serves this one sink
	case <-s.done:
	}
}

func pumpSink(s *singleSink, in <-chan []byte) {
	for p := range in {
		s.put(p)
	}
}

// Each consumer gets a goroutine of its own: a slow one holds only its own.
type ownedSink struct {
	out  chan []byte
	done chan struct{}
}

func (s *ownedSink) put(p []byte) {
	select {
	case s.out <- p: // ok: each call runs on a goroutine of its own
	case <-s.done:
	}
}

func fanOutOwned(sinks []*ownedSink, p []byte) {
	for _, s := range sinks {
		go s.put(p)
	}
}

// An address book's subscriptions: each has a goroutine of its own that
// takes every address as it comes and queues it for the subscriber, so
// the broadcast never waits for a subscriber's reader, only for a relay
// that is always ready.
type addrSub struct {
	pubch chan string
	ctx   context.Context
}

func (s *addrSub) pubAddr(a string) {
	select {
	case s.pubch <- a: // ok: the subscription's relay keeps reading
	case <-s.ctx.Done():
	}
}

type addrSubs struct {
	mu   sync.RWMutex
	subs []*addrSub
}

func (m *addrSubs) broadcast(a string) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, s := range m.subs {
		s.pubAddr(a)
	}
}

func (m *addrSubs) stream(ctx context.Context) <-chan string {
	s := &addrSub{pubch: make(chan string), ctx: ctx}
	out := make(chan string)
	m.mu.Lock()
	m.subs = append(m.subs, s)
	m.mu.Unlock()
	go func() {
		defer close(out)
		var queue []string
		for {
			var outch chan string
			var next string
			if len(queue) > 0 {
				outch, next = out, queue[0]
			}
			select {
			case outch <- next:
				queue = queue[1:]
			case a := <-s.pubch:
				queue = append(queue, a)
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// A subscription whose channel only the package's own forwarder reads,
// through reflect.Select, never loses its reader while it is open: the
// forwarder takes a quit request on every trip, and closes forwardDone as
// it leaves. The pass cannot see that reader, so it cannot say the
// consumer stops reading: the hand-off of the client's shutdown is in the
// audit tier.
type clientSub struct {
	quit        chan error
	forwardDone chan struct{}
}

func newClientSub() *clientSub {
	sub := &clientSub{quit: make(chan error), forwardDone: make(chan struct{})}
	go sub.forward()
	return sub
}

func (sub *clientSub) forward() {
	defer close(sub.forwardDone)
	cases := []reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(sub.quit)}}
	reflect.Select(cases)
}

func (sub *clientSub) close(err error) {
	select {
	case sub.quit <- err: // want `send on sub\.quit waits for as long as its consumer stays open .*\[audit: no receive of the channel is in sight, and no function hands it to the consumer's caller`
	case <-sub.forwardDone:
	}
}

type subsClient struct{ subs map[string]*clientSub }

func (c *subsClient) cancelAll(err error) {
	for id, sub := range c.subs {
		delete(c.subs, id)
		sub.close(err)
	}
}

// A mux keeps each subscription's channel twice: as postC, which its
// Post sends on, and as readC, which Chan hands the subscriber. The
// subscriber reads where the pass can see it handed out, and one that
// stops reading holds Post for every other subscriber.
type muxEvent struct{ data any }

type muxSub struct {
	closing chan struct{}
	readC   <-chan *muxEvent
	postC   chan<- *muxEvent
}

func newMuxSub() *muxSub {
	c := make(chan *muxEvent)
	return &muxSub{closing: make(chan struct{}), readC: c, postC: c}
}

func (s *muxSub) Chan() <-chan *muxEvent { return s.readC }

func (s *muxSub) deliver(ev *muxEvent) {
	select {
	case s.postC <- ev: // want `send on s\.postC waits for as long as its consumer stays open and does not read, and \(\*typeMux\)\.Post, which hands every consumer its messages, waits with it: one consumer that stops reading stalls all the others$`
	case <-s.closing:
	}
}

type typeMux struct{ subs []*muxSub }

func (m *typeMux) Post(data any) {
	ev := &muxEvent{data: data}
	for _, s := range m.subs {
		s.deliver(ev)
	}
}
