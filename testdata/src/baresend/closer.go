package baresend

import (
	"errors"
	"net"
	"sync"
)

// A record conn decrypts what arrives on the wire in a read loop of its
// own and hands each record to Read on an unbuffered channel. Close
// closes the wire and returns: an application that closes the conn
// without reading what is pending leaves the loop on its send for good.
type RecordConn struct {
	next    net.Conn
	records chan []byte
}

func NewRecordConn(next net.Conn) *RecordConn {
	c := &RecordConn{next: next, records: make(chan []byte)}
	go c.readLoop()
	return c
}

func (c *RecordConn) readLoop() {
	buf := make([]byte, 1500)
	for {
		n, err := c.next.Read(buf)
		if err != nil {
			close(c.records) // Close's closing of the wire ends here too
			return
		}
		c.handle(append([]byte(nil), buf[:n]...))
	}
}

func (c *RecordConn) handle(record []byte) {
	c.records <- record // want `send on c\.records \(chan \[\]byte, unbuffered\) can block forever: its receiver is \(\*RecordConn\)\.Read, which callers stop calling once they call \(\*RecordConn\)\.Close, and nothing \(\*RecordConn\)\.Close does lets this send give up: a value pending at Close is never taken`
}

func (c *RecordConn) Read(p []byte) (int, error) {
	record, ok := <-c.records
	if !ok {
		return 0, net.ErrClosed
	}
	return copy(p, record), nil
}

func (c *RecordConn) Close() error { return c.next.Close() }

// A row stream runs its query on a goroutine and hands rows to Next
// through a buffer; a caller that stops early calls Close, which does not
// stop the producer. Once the buffer is full the producer waits for good.
type RowStream struct {
	rows chan []string
	err  error
}

func Query(fetch func() ([]string, bool)) *RowStream {
	s := &RowStream{rows: make(chan []string, 16)}
	go func() {
		defer close(s.rows)
		for {
			row, ok := fetch()
			if !ok {
				return
			}
			s.rows <- row // want `its receiver is \(\*RowStream\)\.Next, which callers stop calling once they call \(\*RowStream\)\.Close`
		}
	}()
	return s
}

func (s *RowStream) Next() ([]string, bool) {
	row, ok := <-s.rows
	return row, ok
}

func (s *RowStream) Close() { s.err = errors.New("closed") }

// A frame reader's exported methods take frames through one helper; the
// helper runs only inside those calls, so it is the caller's receive.
type FrameReader struct {
	frames chan []byte
	src    net.Conn
}

func NewFrameReader(src net.Conn) *FrameReader {
	r := &FrameReader{frames: make(chan []byte, 4), src: src}
	go r.pump()
	return r
}

func (r *FrameReader) pump() {
	for {
		buf := make([]byte, 512)
		n, err := r.src.Read(buf)
		if err != nil {
			return
		}
		r.frames <- buf[:n] // want `its receiver is \(\*FrameReader\)\.take, which callers stop calling once they call \(\*FrameReader\)\.Close`
	}
}

func (r *FrameReader) ReadFrame() []byte { return r.take() }

func (r *FrameReader) Discard() { r.take() }

func (r *FrameReader) take() []byte { return <-r.frames }

func (r *FrameReader) Close() error { return r.src.Close() }

// A frame reader whose helper also runs on a goroutine of its own is not
// only the caller's: what that goroutine does after Close the pass does
// not judge.
type PrefetchReader struct {
	frames chan []byte
	next   chan []byte
	src    net.Conn
}

func NewPrefetchReader(src net.Conn) *PrefetchReader {
	r := &PrefetchReader{frames: make(chan []byte, 4), next: make(chan []byte, 1), src: src}
	go r.pump()
	go func() { r.next <- r.take() }()
	return r
}

func (r *PrefetchReader) pump() {
	for {
		buf := make([]byte, 512)
		n, err := r.src.Read(buf)
		if err != nil {
			return
		}
		r.frames <- buf[:n]
	}
}

func (r *PrefetchReader) ReadFrame() []byte { return r.take() }

func (r *PrefetchReader) take() []byte { return <-r.frames }

func (r *PrefetchReader) Close() error { return r.src.Close() }

// The fixed record conn: Close signals the loop, and the loop's send
// gives up on that signal.
type FixedRecordConn struct {
	next    net.Conn
	records chan []byte
	closed  chan struct{}
}

func NewFixedRecordConn(next net.Conn) *FixedRecordConn {
	c := &FixedRecordConn{next: next, records: make(chan []byte), closed: make(chan struct{})}
	go c.readLoop()
	return c
}

func (c *FixedRecordConn) readLoop() {
	buf := make([]byte, 1500)
	for {
		n, err := c.next.Read(buf)
		if err != nil {
			return
		}
		select {
		case c.records <- append([]byte(nil), buf[:n]...):
		case <-c.closed:
			return
		}
	}
}

func (c *FixedRecordConn) Read(p []byte) (int, error) {
	select {
	case record := <-c.records:
		return copy(p, record), nil
	case <-c.closed:
		return 0, net.ErrClosed
	}
}

func (c *FixedRecordConn) Close() error {
	close(c.closed)
	return c.next.Close()
}

// A draining stream's Close takes what the producer has pending, through
// Next, until the producer closes the channel: nothing is left behind.
type DrainingStream struct{ rows chan []string }

func QueryDrained(fetch func() ([]string, bool)) *DrainingStream {
	s := &DrainingStream{rows: make(chan []string)}
	go func() {
		defer close(s.rows)
		for row, ok := fetch(); ok; row, ok = fetch() {
			s.rows <- row
		}
	}()
	return s
}

func (s *DrainingStream) Next() ([]string, bool) {
	row, ok := <-s.rows
	return row, ok
}

func (s *DrainingStream) Close() error {
	go func() {
		for _, ok := s.Next(); ok; _, ok = s.Next() {
		}
	}()
	return nil
}

// A pipe's writer is the caller's own goroutine, not a loop of the
// package: a Write after Close is the caller's mistake, and a Write before
// it waits for the Read it is paired with.
type MsgPipe struct{ msgs chan string }

func NewMsgPipe() *MsgPipe { return &MsgPipe{msgs: make(chan string)} }

func (p *MsgPipe) Write(m string) { p.msgs <- m }

func (p *MsgPipe) Read() string { return <-p.msgs }

func (p *MsgPipe) Close() error { return nil }

// A feed whose Close takes a reason is not an io.Closer: the pass does not
// read a contract into it, and the send is the handshake it looks like.
type ReasonFeed struct{ events chan string }

func NewReasonFeed(source func() string) *ReasonFeed {
	f := &ReasonFeed{events: make(chan string)}
	go func() {
		for {
			f.events <- source()
		}
	}()
	return f
}

func (f *ReasonFeed) Next() string { return <-f.events }

func (f *ReasonFeed) Close(reason error) {}

// A feed that also hands its channel out has receivers the package cannot
// see: whether they read on after Close is theirs to say.
type OpenFeed struct {
	items chan string
	src   func() string
}

func NewOpenFeed(src func() string) *OpenFeed {
	f := &OpenFeed{items: make(chan string), src: src}
	go f.pump()
	return f
}

func (f *OpenFeed) pump() {
	for {
		f.items <- f.src()
	}
}

func (f *OpenFeed) Next() string { return <-f.items }

func (f *OpenFeed) Items() <-chan string { return f.items }

func (f *OpenFeed) Close() error { return nil }

// A remote session copies its streams on one goroutine each, started when
// the command starts, and Wait collects one error from each. The buffer
// has a slot for every copier, so a session closed without Wait strands
// nothing: only starting the same session twice, which its callers
// refuse, would put more values into one buffer than it holds.
type RemoteSession struct {
	copiers []func() error
	errs    chan error
	started bool
}

func (s *RemoteSession) Start() error {
	if s.started {
		return errors.New("session already started")
	}
	s.started = true
	s.errs = make(chan error, len(s.copiers))
	for _, copy := range s.copiers {
		go func(copy func() error) {
			s.errs <- copy() // want `send on s\.errs .*which callers stop calling once they call \(\*RemoteSession\)\.Close.* \[audit: its buffer holds one value from each goroutine \(\*RemoteSession\)\.Start starts to fill it; it can fill up only if \(\*RemoteSession\)\.Start runs again for the same value\]`
		}(copy)
	}
	return nil
}

func (s *RemoteSession) Wait() error {
	var first error
	for range s.copiers {
		if err := <-s.errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (s *RemoteSession) Close() error { return nil }

// A session that also starts a keep-alive copier beside the stream
// copiers has one more sender than slots: a session closed without Wait
// leaves the last one blocked.
type KeptSession struct {
	copiers   []func() error
	keepAlive func() error
	errs      chan error
}

func (s *KeptSession) Start() {
	s.errs = make(chan error, len(s.copiers))
	for _, copy := range s.copiers {
		go func(copy func() error) {
			s.errs <- copy() // want `send on s\.errs .*which callers stop calling once they call \(\*KeptSession\)\.Close, and nothing \(\*KeptSession\)\.Close does lets this send give up: a value pending at Close is never taken$`
		}(copy)
	}
	go func() {
		s.errs <- s.keepAlive() // want `send on s\.errs .*which callers stop calling once they call \(\*KeptSession\)\.Close, and nothing \(\*KeptSession\)\.Close does lets this send give up: a value pending at Close is never taken$`
	}()
}

func (s *KeptSession) Wait() error {
	for range s.copiers {
		if err := <-s.errs; err != nil {
			return err
		}
	}
	return nil
}

func (s *KeptSession) Close() error { return nil }

// A connection mux hands each connection to the listener registered for
// its first byte. The listener's Close does nothing: the mux ends every
// listener itself, closing its channel once the handlers it started are
// done, and Accept reports that close. Callers accept until Accept
// fails, so none of them stops at Close, and the mux's close comes only
// after the last send was taken: the audit tier, with that close.
type ConnMux struct {
	ln       net.Listener
	handlers map[byte]*MuxListener
	wg       sync.WaitGroup
}

type MuxListener struct{ c chan net.Conn }

func (m *ConnMux) Listen(b byte) *MuxListener {
	l := &MuxListener{c: make(chan net.Conn)}
	m.handlers[b] = l
	return l
}

func (m *ConnMux) Serve() error {
	defer func() {
		m.wg.Wait()
		for _, l := range m.handlers {
			close(l.c)
		}
	}()
	for {
		conn, err := m.ln.Accept()
		if err != nil {
			return err
		}
		m.wg.Add(1)
		go m.handle(conn)
	}
}

func (m *ConnMux) handle(conn net.Conn) {
	defer m.wg.Done()
	b := make([]byte, 1)
	if _, err := conn.Read(b); err != nil {
		conn.Close()
		return
	}
	l := m.handlers[b[0]]
	if l == nil {
		conn.Close()
		return
	}
	l.c <- conn // want `its receiver is \(\*MuxListener\)\.Accept, .* \[audit: \(\*MuxListener\)\.Close does nothing, and the package closes the channel itself: callers that call \(\*MuxListener\)\.Accept until it fails stop on that close, not on \(\*MuxListener\)\.Close\]`
}

func (l *MuxListener) Accept() (net.Conn, error) {
	conn, ok := <-l.c
	if !ok {
		return nil, net.ErrClosed
	}
	return conn, nil
}

// Close is a no-op: the mux closes its listeners.
func (l *MuxListener) Close() error { return nil }

func (l *MuxListener) Addr() net.Addr { return nil }

// A listener whose Close does nothing, with a channel nothing closes, has
// no other end than its callers' say: one that closes it and stops
// accepting strands the reader's send, as with RecordConn.
type TapListener struct{ c chan net.Conn }

func NewTapListener(src net.Listener) *TapListener {
	l := &TapListener{c: make(chan net.Conn)}
	go l.pump(src)
	return l
}

func (l *TapListener) pump(src net.Listener) {
	for {
		conn, err := src.Accept()
		if err != nil {
			return
		}
		l.c <- conn // want `its receiver is \(\*TapListener\)\.Accept, which callers stop calling once they call \(\*TapListener\)\.Close, and nothing \(\*TapListener\)\.Close does lets this send give up`
	}
}

func (l *TapListener) Accept() (net.Conn, error) { return <-l.c, nil }

func (l *TapListener) Close() error { return nil }
