// Package configured holds types that are streams or block only because
// configuration says so: the test names streams/configured.Pipe with
// -streams and streams/configured.Queue.Put with -blocking.
package configured

// Pipe is a stream by configuration.
type Pipe struct{}

func (p *Pipe) Send(b []byte) error { return nil }

func (p *Pipe) SendMsg(m any) error { return nil }

func (p *Pipe) Close() error { return nil }

// Queue's Put blocks by configuration; Len does not.
type Queue interface {
	Put(v any) error
	Len() int
}

// Buffered embeds a configured stream, so its own Send is a send.
type Buffered struct{ *Pipe }

func (b *Buffered) Send(x []byte) error {
	return b.Pipe.Send(x) // want `send \(\*configured.Pipe\).Send: b.Pipe.Send`
}

// list has a Put of its own; only Queue's is configured.
type list struct{ items []any }

func (l *list) Put(v any) error {
	l.items = append(l.items, v)
	return nil
}

// Store embeds Queue, but Queue is not a stream: Store's Send is not a send.
type Store struct{ Queue }

func (s *Store) Send(v any) error { return s.Queue.Put(v) } // want `send configured.Queue.Put: s.Queue.Put`

func use(p *Pipe, q Queue, b *Buffered, l *list, s *Store) {
	p.Send(nil)    // want `send \(\*configured.Pipe\).Send: p.Send`
	p.SendMsg(nil) // want `send \(\*configured.Pipe\).SendMsg: p.SendMsg`
	p.Close()      // ok: not a send
	q.Put(1)       // want `send configured.Queue.Put: q.Put`
	q.Len()        // ok: not configured
	b.Send(nil)    // want `send \(\*configured.Buffered\).Send: b.Send`
	l.Put(1)       // ok: another type's Put
	s.Send(1)      // ok: Store embeds no stream
	s.Put(1)       // want `send configured.Queue.Put: s.Queue.Put`
	put := q.Put
	put(2) // want `send configured.Queue.Put: q.Put, a method value taken at configured.go:51`
}
