package baresend

import (
	"context"
	"errors"
	"net"
	"sync"

	"baresend/closerkit"
)

// A secure conn runs its handshake on two goroutines of its own: one
// drives the handshake's flights, one reads records off the wire. It
// hands application data to Read on an unbuffered channel, in a select
// that gives up once the conn is closed. When a flight fails, DialSecure
// returns no conn and does not close the one it made: no one can call
// Read or Close any more, and a record that arrives then leaves the read
// loop waiting for good.
type SecureConn struct {
	next      net.Conn
	decrypted chan []byte
	closed    *closerkit.Closer
	flights   *flightRunner
}

// flightConn is what the flights need of the conn.
type flightConn interface {
	writeFlight(b []byte) error
}

type flightRunner struct {
	onFinished func()
}

func (f *flightRunner) run(conn flightConn) error {
	for i := 0; i < 3; i++ {
		if err := conn.writeFlight([]byte{byte(i)}); err != nil {
			return err
		}
	}
	f.onFinished()
	return nil
}

func DialSecure(next net.Conn) (*SecureConn, error) {
	c := &SecureConn{next: next, decrypted: make(chan []byte), closed: closerkit.New(0)}
	if err := c.handshake(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *SecureConn) handshake() error {
	finished := make(chan struct{})
	firstErr := make(chan error, 2)
	c.flights = &flightRunner{onFinished: func() { close(finished) }}
	go func() {
		if err := c.flights.run(c); err != nil {
			firstErr <- err
		}
	}()
	go func() {
		buf := make([]byte, 1500)
		for {
			n, err := c.next.Read(buf)
			if err != nil {
				firstErr <- err
				c.close()
				return
			}
			c.handleRecord(append([]byte(nil), buf[:n]...))
		}
	}()
	select {
	case err := <-firstErr:
		return err
	case <-finished:
		return nil
	}
}

func (c *SecureConn) handleRecord(record []byte) {
	if len(record) == 0 {
		return
	}
	select {
	case c.decrypted <- record: // want `send on c\.decrypted \(chan \[\]byte, unbuffered\) can block forever: DialSecure can return without the \*SecureConn it made while the goroutine that sends here runs on: nothing can then fire c\.closed, this select's only way out`
	case <-c.closed.HasBeenClosed():
	}
}

func (c *SecureConn) writeFlight(b []byte) error {
	_, err := c.next.Write(b)
	return err
}

func (c *SecureConn) Read(p []byte) (int, error) {
	select {
	case r := <-c.decrypted:
		return copy(p, r), nil
	case <-c.closed.HasBeenClosed():
		return 0, net.ErrClosed
	}
}

func (c *SecureConn) Close() error {
	c.close()
	return c.next.Close()
}

func (c *SecureConn) close() { c.closed.Signal() }

// A tunnel's read loop gives up on its stop channel. Each way of opening
// one below leaves a tunnel whose greeting fails to someone who can still
// close it, so the loop's way out can fire.
type Tunnel struct {
	next   net.Conn
	frames chan []byte
	stop   chan struct{}
	once   sync.Once
}

func newTunnel(next net.Conn) *Tunnel {
	t := &Tunnel{next: next, frames: make(chan []byte), stop: make(chan struct{})}
	go t.readLoop()
	return t
}

func (t *Tunnel) readLoop() {
	buf := make([]byte, 1500)
	for {
		n, err := t.next.Read(buf)
		if err != nil {
			return
		}
		select {
		case t.frames <- append([]byte(nil), buf[:n]...):
		case <-t.stop:
			return
		}
	}
}

func (t *Tunnel) Read(p []byte) (int, error) { return copy(p, <-t.frames), nil }

func (t *Tunnel) Close() error {
	t.once.Do(func() { close(t.stop) })
	return t.next.Close()
}

// OpenTunnel closes the tunnel when the greeting fails.
func OpenTunnel(next net.Conn) (*Tunnel, error) {
	t := newTunnel(next)
	if _, err := next.Write([]byte("hello")); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// OpenRelay returns the tunnel with the error, for the caller to close.
func OpenRelay(next net.Conn) (*Tunnel, error) {
	t := newTunnel(next)
	_, err := next.Write([]byte("hello"))
	return t, err
}

// A hub registers each tunnel before its greeting: a failed one is still
// the hub's to close.
type tunnelHub struct{ tunnels map[*Tunnel]bool }

func (h *tunnelHub) Open(next net.Conn) (*Tunnel, error) {
	t := newTunnel(next)
	h.tunnels[t] = true
	if _, err := next.Write([]byte("hello")); err != nil {
		return nil, err
	}
	return t, nil
}

func (h *tunnelHub) CloseAll() {
	for t := range h.tunnels {
		t.Close()
	}
}

// DialLink hands a tunnel whose greeting fails back inside the error.
func DialLink(next net.Conn) (*Tunnel, error) {
	t := newTunnel(next)
	if _, err := next.Write([]byte("hello")); err != nil {
		return nil, &LinkError{Tunnel: t, Err: err}
	}
	return t, nil
}

type LinkError struct {
	Tunnel *Tunnel
	Err    error
}

func (e *LinkError) Error() string { return e.Err.Error() }

// A session's read loop also gives up on the dial's context, which the
// caller of a failed dial cancels: that way out does not belong to the
// session.
type Session struct {
	next   net.Conn
	frames chan []byte
	stop   chan struct{}
}

func DialSession(ctx context.Context, next net.Conn) (*Session, error) {
	s := &Session{next: next, frames: make(chan []byte), stop: make(chan struct{})}
	go s.readLoop(ctx)
	if _, err := next.Write([]byte("hello")); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Session) readLoop(ctx context.Context) {
	buf := make([]byte, 1500)
	for {
		n, err := s.next.Read(buf)
		if err != nil {
			return
		}
		select {
		case s.frames <- append([]byte(nil), buf[:n]...):
		case <-s.stop:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (s *Session) Read(b []byte) (int, error) { return copy(b, <-s.frames), nil }

func (s *Session) Close() error {
	close(s.stop)
	return s.next.Close()
}

// A ticker feed's reader stops on its stop channel, which only Close
// closes. A feed whose subscription fails is dropped with its reader
// running, and once sixteen items wait in the buffer the reader waits for
// good.
type TickerFeed struct {
	next  net.Conn
	items chan []byte
	stop  chan struct{}
}

func SubscribeTicker(next net.Conn, topic string) (*TickerFeed, error) {
	t := newTickerFeed(next)
	if _, err := next.Write([]byte("subscribe " + topic)); err != nil {
		return nil, err
	}
	return t, nil
}

func newTickerFeed(next net.Conn) *TickerFeed {
	t := &TickerFeed{next: next, items: make(chan []byte, 16), stop: make(chan struct{})}
	go t.readLoop()
	return t
}

func (t *TickerFeed) readLoop() {
	buf := make([]byte, 1500)
	for {
		n, err := t.next.Read(buf)
		if err != nil {
			return
		}
		select {
		case t.items <- append([]byte(nil), buf[:n]...): // want `send on t\.items \(chan \[\]byte, cap 16\) can block forever: SubscribeTicker can return without the \*TickerFeed it got from newTickerFeed while the goroutine that sends here runs on: nothing can then fire t\.stop, this select's only way out`
		case <-t.stop:
			return
		}
	}
}

func (t *TickerFeed) Next() []byte { return <-t.items }

func (t *TickerFeed) Close() error {
	close(t.stop)
	return t.next.Close()
}

// A greeter's reader hands the peer's one greeting to Hello through a
// one-slot buffer: its one send never waits, whether or not DialGreeter
// keeps the greeter.
type Greeter struct {
	next  net.Conn
	hello chan []byte
	stop  chan struct{}
}

func DialGreeter(next net.Conn) (*Greeter, error) {
	g := &Greeter{next: next, hello: make(chan []byte, 1), stop: make(chan struct{})}
	go g.readHello()
	if _, err := next.Write([]byte("hello")); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *Greeter) readHello() {
	buf := make([]byte, 64)
	n, err := g.next.Read(buf)
	if err != nil {
		return
	}
	select {
	case g.hello <- buf[:n]:
	case <-g.stop:
	}
}

func (g *Greeter) Hello() []byte { return <-g.hello }

func (g *Greeter) Close() error {
	close(g.stop)
	return g.next.Close()
}

// A stream's reader forwards data only once the stream is open, which
// only a successful OpenStream marks: a failed open drops a stream whose
// reader never sends.
type Stream struct {
	next net.Conn
	mu   sync.Mutex
	open bool
	data chan []byte
	stop chan struct{}
}

func OpenStream(next net.Conn) (*Stream, error) {
	s := &Stream{next: next, data: make(chan []byte), stop: make(chan struct{})}
	go s.readLoop()
	if _, err := next.Write([]byte("open")); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.open = true
	s.mu.Unlock()
	return s, nil
}

func (s *Stream) readLoop() {
	buf := make([]byte, 1500)
	for {
		n, err := s.next.Read(buf)
		if err != nil {
			return
		}
		s.mu.Lock()
		if !s.open {
			s.mu.Unlock()
			continue
		}
		s.mu.Unlock()
		select {
		case s.data <- append([]byte(nil), buf[:n]...):
		case <-s.stop:
			return
		}
	}
}

func (s *Stream) Read(b []byte) (int, error) { return copy(b, <-s.data), nil }

func (s *Stream) Close() error {
	close(s.stop)
	return s.next.Close()
}

// A directory watcher's loop hands each change to Next. When the first
// poll fails, WatchDir returns no watcher, and the loop it started waits
// on its first change for good.
type DirWatcher struct {
	poll    func() (string, error)
	changes chan string
}

func WatchDir(poll func() (string, error)) (*DirWatcher, error) {
	w := &DirWatcher{poll: poll, changes: make(chan string)}
	go w.loop()
	if _, err := poll(); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *DirWatcher) loop() {
	for {
		change, err := w.poll()
		if err != nil {
			return
		}
		w.changes <- change // want `send on w\.changes \(chan string, unbuffered\) can block forever: WatchDir can return without the \*DirWatcher it made while the goroutine that sends here runs on: what receives from it needs the \*DirWatcher, which no one holds any more`
	}
}

func (w *DirWatcher) Next() string { return <-w.changes }

// A prober's one answer fits the slot made for it, kept or not.
type Prober struct {
	probe  func() string
	answer chan string
}

func StartProbe(probe func() string) (*Prober, error) {
	p := &Prober{probe: probe, answer: make(chan string, 1)}
	go func() { p.answer <- p.probe() }()
	if probe == nil {
		return nil, errNoProbe
	}
	return p, nil
}

var errNoProbe = errors.New("no probe")

func (p *Prober) Answer() string { return <-p.answer }
