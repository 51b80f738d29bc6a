package baresend

import (
	"context"

	"baresend/closerkit"
)

// A buffered queue whose loop stops only when its owner says so, fed by
// one send per call of the package's API: the send blocks only if the
// callers go on calling after they stopped the loop, until the buffer is
// full. Whether they may is a contract of the API (most say: not after
// Close) that the pass cannot see the other half of: the audit tier. A
// loop or a goroutine of the package that keeps sending fills the buffer
// by itself, an unbuffered send blocks at the first call after the stop,
// and a loop that can return on its own failure leaves callers no way to
// know: those stay default findings. So does a loop that gives up on a
// context its callers handed in (pump, in lifetimes.go): that context can
// end at any time, for reasons of its own, and the callers cannot know.

type mark struct {
	index uint64
	done  bool
}

// WaterMark tracks the indices its callers begin and finish.
type WaterMark struct {
	marks chan mark
}

func (w *WaterMark) Init(closer *closerkit.Closer) {
	w.marks = make(chan mark, 100)
	go w.process(closer)
}

func (w *WaterMark) process(closer *closerkit.Closer) {
	defer closer.Done()
	for {
		select {
		case <-closer.HasBeenClosed():
			return
		case m := <-w.marks:
			_ = m
		}
	}
}

func (w *WaterMark) Begin(index uint64) {
	w.marks <- mark{index: index} // want `\[audit: its receiver \(\*WaterMark\)\.process stops only when told to, and this send is made once per call into a buffer of 100: it blocks only if callers go on calling after the stop until the buffer is full\]`
}

func (w *WaterMark) Done(index uint64) {
	w.done(index)
}

// done is unexported, but every call of it is one of a user's calls.
func (w *WaterMark) done(index uint64) {
	w.marks <- mark{index: index, done: true} // want `\[audit: its receiver \(\*WaterMark\)\.process stops only when told to, and this send is made once per call into a buffer of 100`
}

// DoneMany sends once per index: a single call after the stop can fill
// the buffer.
func (w *WaterMark) DoneMany(indices []uint64) {
	for _, i := range indices {
		w.marks <- mark{index: i, done: true} // want `send on w\.marks \(chan mark, cap 100\) can block forever: its receiver \(\*WaterMark\)\.process can stop receiving, and no liveness case`
	}
}

// ticker's loop stops when told to, and a goroutine of its own keeps
// queueing ticks: nothing waits for a user to call.
type ticker struct {
	ticks chan int
}

func StartTicker(closer *closerkit.Closer) *ticker {
	t := &ticker{ticks: make(chan int, 16)}
	go t.loop(closer)
	go t.pump()
	return t
}

func (t *ticker) loop(closer *closerkit.Closer) {
	for {
		select {
		case <-closer.HasBeenClosed():
			return
		case n := <-t.ticks:
			_ = n
		}
	}
}

func (t *ticker) pump() {
	for n := 0; ; n++ {
		t.Tick(n)
	}
}

func (t *ticker) Tick(n int) {
	t.ticks <- n // want `send on t\.ticks \(chan int, cap 16\) can block forever: its receiver \(\*ticker\)\.loop can stop receiving, and no liveness case`
}

// mailbox's loop is unbuffered: the first Post after the stop blocks.
type mailbox struct {
	posts chan string
}

func newMailbox(closer *closerkit.Closer) *mailbox {
	m := &mailbox{posts: make(chan string)}
	go m.loop(closer)
	return m
}

func (m *mailbox) loop(closer *closerkit.Closer) {
	for {
		select {
		case <-closer.HasBeenClosed():
			return
		case p := <-m.posts:
			_ = p
		}
	}
}

func (m *mailbox) Post(p string) {
	m.posts <- p // want `send on m\.posts \(chan string, unbuffered\) can block forever: its receiver \(\*mailbox\)\.loop can stop receiving, and no liveness case`
}

// journal's loop returns when a write fails, which no caller asked for
// and none can see.
type journal struct {
	entries chan []byte
	sink    interface{ Write([]byte) (int, error) }
}

func openJournal(closer *closerkit.Closer, sink interface{ Write([]byte) (int, error) }) *journal {
	j := &journal{entries: make(chan []byte, 64), sink: sink}
	go j.loop(closer)
	return j
}

func (j *journal) loop(closer *closerkit.Closer) {
	for {
		select {
		case <-closer.HasBeenClosed():
			return
		case e := <-j.entries:
			if _, err := j.sink.Write(e); err != nil {
				return
			}
		}
	}
}

func (j *journal) Append(e []byte) {
	j.entries <- e // want `send on j\.entries \(chan \[\]byte, cap 64\) can block forever: its receiver \(\*journal\)\.loop can stop receiving, and no liveness case`
}

// bulletin's Notify is also called, through an interface of the same
// signature, by a goroutine of the package that loops.
type bulletin struct {
	notes chan string
}

type noter interface{ Notify(string) }

func newBulletin(closer *closerkit.Closer) *bulletin {
	n := &bulletin{notes: make(chan string, 8)}
	go n.loop(closer)
	go relay(n)
	return n
}

func (n *bulletin) loop(closer *closerkit.Closer) {
	for {
		select {
		case <-closer.HasBeenClosed():
			return
		case s := <-n.notes:
			_ = s
		}
	}
}

func relay(to noter) {
	for {
		to.Notify("tick")
	}
}

func (n *bulletin) Notify(s string) {
	n.notes <- s // want `send on n\.notes \(chan string, cap 8\) can block forever: its receiver \(\*bulletin\)\.loop can stop receiving, and no liveness case`
}

// indexer owns the context its loop gives up on: only Stop cancels it.
type indexer struct {
	docs chan string
	stop context.CancelFunc
}

func newIndexer() *indexer {
	ctx, cancel := context.WithCancel(context.Background())
	ix := &indexer{docs: make(chan string, 32), stop: cancel}
	go ix.loop(ctx)
	return ix
}

func (ix *indexer) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case d := <-ix.docs:
			_ = d
		}
	}
}

func (ix *indexer) Stop() { ix.stop() }

func (ix *indexer) Add(d string) {
	ix.docs <- d // want `\[audit: its receiver \(\*indexer\)\.loop stops only when told to, and this send is made once per call into a buffer of 32`
}

// indexTracker reaches WaterMark's track through an interface, once per call
// of Track: still once per user's call.
type indexTracker interface{ track(index uint64) }

func Track(t indexTracker, index uint64) { t.track(index) }

func (w *WaterMark) track(index uint64) {
	w.marks <- mark{index: index} // want `\[audit: its receiver \(\*WaterMark\)\.process stops only when told to, and this send is made once per call into a buffer of 100`
}

// A consumer seeks every one of its partitions: each trip of Seek's loop
// sends into another partition's queue, one value per partition per call,
// so the count per channel is still once per user's call.
type subPartition struct {
	seeks chan string
}

func newSubPartition(closer *closerkit.Closer) *subPartition {
	p := &subPartition{seeks: make(chan string, 10)}
	go p.loop(closer)
	return p
}

func (p *subPartition) loop(closer *closerkit.Closer) {
	for {
		select {
		case <-closer.HasBeenClosed():
			return
		case id := <-p.seeks:
			_ = id
		}
	}
}

func (p *subPartition) seek(id string) {
	p.seeks <- id // want `\[audit: its receiver \(\*subPartition\)\.loop stops only when told to, and this send is made once per call into a buffer of 10`
}

type PartitionedConsumer struct {
	subPartitions []*subPartition
}

func (c *PartitionedConsumer) Seek(id string) {
	for _, p := range c.subPartitions {
		p.seek(id)
	}
}

// A shard's replay sends every id into the same shard's queue: one call
// after the stop can fill it.
type replayShard struct {
	replays chan string
}

func newReplayShard(closer *closerkit.Closer) *replayShard {
	s := &replayShard{replays: make(chan string, 10)}
	go s.loop(closer)
	return s
}

func (s *replayShard) loop(closer *closerkit.Closer) {
	for {
		select {
		case <-closer.HasBeenClosed():
			return
		case id := <-s.replays:
			_ = id
		}
	}
}

func (s *replayShard) replay(id string) {
	s.replays <- id // want `send on s\.replays \(chan string, cap 10\) can block forever: its receiver \(\*replayShard\)\.loop can stop receiving, and no liveness case`
}

func (s *replayShard) Replay(ids []string) {
	for _, id := range ids {
		s.replay(id)
	}
}
