package baresend

import (
	"baresend/internal/wire"
	"baresend/wirekit"
)

// A topic reader queues its requests on its events loop, which returns
// once the reader is closed. Seek is the user's call, once per call, so a
// Seek after Close fills the ten slots only as fast as the user goes on
// calling. ConnectionClosed is the shared connection's call back, made
// from the connection's goroutine however often it loses its link, closed
// reader or not: once the loop is gone the eleventh blocks the connection,
// and every reader on it.
type Reader struct {
	p *partitionReader
}

func OpenReader(conn *wire.Conn) *Reader {
	p := &partitionReader{events: make(chan any, 10), closeCh: make(chan struct{})}
	conn.Register(p)
	go p.loop()
	return &Reader{p: p}
}

func (r *Reader) Seek(pos int) { r.p.Seek(pos) }
func (r *Reader) Close()       { r.p.Close() }

type partitionReader struct {
	events  chan any
	closeCh chan struct{}
}

func (p *partitionReader) loop() {
	for {
		select {
		case <-p.closeCh:
			return
		case e := <-p.events:
			println(e)
		}
	}
}

func (p *partitionReader) Seek(pos int) {
	p.events <- pos // want `\[audit: its receiver \(\*partitionReader\)\.loop stops only when told to, and this send is made once per call into a buffer of 10`
}

func (p *partitionReader) ConnectionClosed(reason string) {
	p.events <- reason // want `send on p\.events \(chan any, cap 10\) can block forever: its receiver \(\*partitionReader\)\.loop can stop receiving, and no liveness case`
}

func (p *partitionReader) Close() { close(p.closeCh) }

// A reader type users can name: its ConnectionClosed is theirs to call
// as well, and the pass cannot tell the connection's calls from theirs.
type Tail struct {
	events  chan any
	closeCh chan struct{}
}

func OpenTail(conn *wire.Conn) *Tail {
	t := &Tail{events: make(chan any, 10), closeCh: make(chan struct{})}
	conn.Register(t)
	go t.loop()
	return t
}

func (t *Tail) loop() {
	for {
		select {
		case <-t.closeCh:
			return
		case e := <-t.events:
			println(e)
		}
	}
}

func (t *Tail) ConnectionClosed(reason string) {
	t.events <- reason // want `\[audit: its receiver \(\*Tail\)\.loop stops only when told to, and this send is made once per call into a buffer of 10`
}

func (t *Tail) Close() { close(t.closeCh) }

// A reader registered with a connection of a public package: users can
// hold the reader as a wirekit.Handler and call it themselves, so its
// LinkClosed may be their call.
type feedReader struct {
	events  chan any
	closeCh chan struct{}
}

type Feed struct {
	f *feedReader
}

func OpenFeedReader(conn *wirekit.Conn) *Feed {
	f := &feedReader{events: make(chan any, 10), closeCh: make(chan struct{})}
	conn.Register(f)
	go f.loop()
	return &Feed{f: f}
}

func (x *Feed) Close() { x.f.Close() }

func (f *feedReader) loop() {
	for {
		select {
		case <-f.closeCh:
			return
		case e := <-f.events:
			println(e)
		}
	}
}

func (f *feedReader) LinkClosed(reason string) {
	f.events <- reason // want `\[audit: its receiver \(\*feedReader\)\.loop stops only when told to, and this send is made once per call into a buffer of 10`
}

func (f *feedReader) Close() { close(f.closeCh) }
