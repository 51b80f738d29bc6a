// Package trace is a tracing library of another package: events, a
// recorder interface an application plugs in, a writer that implements it,
// and a pool of connections keyed by address.
package trace

// Event is one traced event.
type Event interface{ Name() string }

// PacketDropped says a packet was dropped, and why.
type PacketDropped struct {
	Length  int
	Trigger string
}

func (PacketDropped) Name() string { return "packet_dropped" }

// Recorder records events.
type Recorder interface {
	RecordEvent(Event)
}

// Writer writes events to a trace file.
type Writer struct{ n int }

func (w *Writer) RecordEvent(ev Event) { w.n++ }

// Addr is a peer's address.
type Addr struct {
	Host string
	Port int
}

// Key names a connection.
func Key(a Addr) string { return a.Host }

// Conns is a set of connections by key.
type Conns struct{ m map[string]int }

// Forget drops the connection under key.
func (c *Conns) Forget(key string) { delete(c.m, key) }

// Buffer is a buffer of the library's own pool.
type Buffer struct{ b []byte }

// Release gives the buffer back to its pool.
func (b *Buffer) Release() { b.b = b.b[:0] }
