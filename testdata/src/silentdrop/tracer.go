package silentdrop

import "silentdrop/trace"

// A transport hands each packet that is not its own to an application
// reading them, through a queue that drops what it has no room for. A
// default that builds a record of the drop and hands it to the tracer
// leaves a trace, whatever the tracer's method is called: the record is an
// account of the drop, given to the code that keeps it. A default that
// only cleans up after the packet tells no one.

type packet struct {
	data []byte
	from trace.Addr
	buf  *trace.Buffer
}

func (p packet) Size() int { return len(p.data) }

type transport struct {
	packets chan packet
	tracer  trace.Recorder
	writer  *trace.Writer
	conns   *trace.Conns
}

func newTransport() *transport {
	return &transport{packets: make(chan packet, 32)}
}

func (t *transport) handleTracedOK(p packet) {
	select {
	case t.packets <- p: // ok: the tracer is handed a record of the drop
	default:
		if t.tracer != nil {
			t.tracer.RecordEvent(trace.PacketDropped{Length: p.Size(), Trigger: "queue full"})
		}
	}
}

func (t *transport) handleWrittenOK(p packet) {
	select {
	case t.packets <- p: // ok: a method of another package is handed a record of the drop
	default:
		t.writer.RecordEvent(&trace.PacketDropped{Trigger: "queue full"})
	}
}

// handleStaleRecordBad hands the tracer a record made before the select:
// it does not say that this packet was dropped.
func (t *transport) handleStaleRecordBad(p packet) {
	ev := trace.PacketDropped{Length: p.Size()}
	select {
	case t.packets <- p: // want `send on t\.packets \(chan packet, cap 32\) drops the packet without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
		t.tracer.RecordEvent(ev)
	}
}

// handleReleaseBad gives the packet's buffer back: cleanup, not a report.
func (t *transport) handleReleaseBad(p packet) {
	select {
	case t.packets <- p: // want `send on t\.packets \(chan packet, cap 32\) drops the packet without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
		p.buf.Release()
	}
}

// handleForgetBad builds the sender's address to compute a key, and
// forgets the connection under it: the address is material for the key,
// and forgetting the connection tells no one of the packet.
func (t *transport) handleForgetBad(p packet) {
	select {
	case t.packets <- p: // want `send on t\.packets \(chan packet, cap 32\) drops the packet without a trace when the channel is full: the default neither returns a status, logs, counts nor hands the value on$`
	default:
		t.conns.Forget(trace.Key(trace.Addr{Host: p.from.Host, Port: p.from.Port}))
	}
}
