// Package silentdrop defines an Analyzer that reports non-blocking sends
// whose default branch loses the value without a trace.
//
// # Analyzer silentdrop
//
// silentdrop: report non-blocking sends that drop the value without a trace
//
// The quick fix for a send that can block forever is a select with a
// default: the sender never waits, and when the receiver is slow or gone
// the value is dropped. That trades a wedged goroutine for lost data that
// nobody sees. A reply that never reaches its client, an event a
// subscriber never gets, a delivery that is never retried: the system
// looks healthy and is wrong.
//
// The pass reports, at the send case, a select with a default whose send
// case carries a value, when the default branch does none of these:
//
//   - return a status: a return in the default whose result differs from
//     what the send case returns (return false against return true,
//     return errFull against return nil), or a variable set differently on
//     the two ways out of the select (sent = true in the case) that is read
//     afterwards;
//   - log: a call of a logger's output method, matched by package and
//     method: log and log/slog (Print..., Debug, Info, Warn, Error, Log,
//     LogAttrs and their Context forms), fmt.Print... and fmt.Fprint... on
//     os.Stdout or os.Stderr, the print builtins, testing's Log, Logf,
//     Error, Errorf, Fatal and Fatalf, zap, logrus, klog, glog, logr,
//     hclog, grpclog and nats-server's logger by level name (Warn, Warnf,
//     Warnw, Warning, InfoS...), zerolog's Msg, Msgf and Send, go-kit's
//     Log. A level method on a type of another package counts only when
//     the type's name ends in Logger or Log. Every level counts, Debug
//     included: the pass asks whether the drop can be seen, not how loudly;
//   - update a metric or counter: sync/atomic writes (Add, Store, Swap,
//     CompareAndSwap, functions and methods), expvar, prometheus
//     (Inc, Add, Observe, Set...), OpenTelemetry metric instruments (Add,
//     Record), go-metrics (IncrCounter...), OpenCensus stats.Record; an
//     update method (Inc, Add, Mark, Observe...) on a type whose name ends
//     in Counter, Gauge, Meter, Histogram, Summary, Observer, Timer or
//     Metric(s); and any store to memory others can read: x.dropped++ on a
//     field, a package variable, a map entry, a variable captured by a
//     closure. A local counter counts when it is read after the loop
//     (dropped++ ... log.Printf("%d dropped", dropped)), not when nothing
//     reads it;
//   - hand the value on: a send on another channel (blocking or not), a go
//     statement, a call of a func value (a callback such as onDrop(v)), or
//     a call that is given the dropped value as an argument (spill.Push(v),
//     retry.Add(v)). sync.Pool's Put is not handing on: the value is still
//     lost;
//   - give a record of the drop to the code that keeps one: a call of an
//     interface method or of another package's function, whose results
//     are unused, handed a struct literal that only the default builds, by
//     value, by pointer or in an interface
//     (tracer.RecordEvent(PacketDropped{Length: p.Size()})). Cleanup hands
//     over what it releases (buf.Release(), conns.Forget(key)), not a
//     record, and a record made before the select says nothing of this
//     drop;
//   - fail: panic, os.Exit, runtime.Goexit, log.Fatal; or close a channel,
//     which tells its receiver it was cut off.
//
// Calls to functions of the same package are followed, four calls deep,
// so a default that calls s.noteDrop(v), which logs, is quiet, and so is
// one that refuses a connection through a test-hook wrapper, the
// connection's refuse, its closeLocal and the setCloseError that wakes
// its run loop. Functions
// of other packages are judged by the lists above, by what the default
// hands them, and, outside the standard library, by what their own
// package found when it was analysed: a function that logs, counts or
// exits by the lists above, itself or through the functions of its
// package it calls (a project's debuglog.Printf around a log.Logger),
// carries a fact that says so, and a default that calls it leaves a
// trace.
//
// Such a drop is reported by default only when the value is owed to
// someone and the caller is not told. Both must hold:
//
//   - the value was handed to the function: it is a parameter (not a
//     method's receiver), or made from one (a composite literal holding
//     it, a conversion, a field or element of it), or it was received: from
//     a channel (v := <-in, a select case, a range over a channel), or from
//     a grpc or connect stream's Recv, Receive or Msg. A parameter of a
//     helper whose every call is in sight (an unexported function never
//     used as a value) is owed when some call hands it an owed value;
//   - the way out through the default tells the caller nothing (the
//     function returns no result, or the same results as after the send),
//     or tells it the value went through (it returns nil or true).
//
// One drop is reported by default whatever the default tells: the value
// is a waiter's one answer on an unbuffered channel. Every channel the
// send may be on is a field channel the package makes unbuffered, and
// every receive of it is a plain receive outside any loop, with no
// timeout (a transaction's WaitForResult). The send goes through only
// while the waiter is already blocked: an answer that comes first is
// lost, and the waiter waits for one that never comes. A status or a log
// in the default reaches the sender's caller, not the waiter. A buffered
// slot, a waiter that gives up, or a receiver in a loop is left to the
// rules above and below.
//
// Nor does the value matter when the channel's only receiver makes the
// send itself: every channel the send may be on is an unexported field
// channel the package makes unbuffered, every receive of it is in one
// function, which runs once per channel, and that function makes the send
// or calls, two calls deep at most, the function that does. On that
// goroutine nobody is waiting, so the default always runs; a wake-up
// meant for the loop (a reconnect loop that reports its own failed dial
// as a disconnect) is thrown away, and the loop waits for good. This is
// reported even for a signal or a constant: they coalesce only with a
// pending value, and an unbuffered channel holds none.
//
// Every other drop is an audit finding, shown only with -silentdrop.audit
// (the command's -audit) and labelled with what it lacks, checked in this
// order:
//
//   - [audit: a comment in the default says the drop is intended]: the
//     default holds a comment, after default: or on the lines between the
//     case before it and default, that explains it ("the sweep resends
//     it"), or the line above the select does ("do not block"), or the
//     line above an if or a loop whose body opens with the select. A
//     comment with TODO, FIXME or XXX says the opposite and does not count;
//   - [audit: the function also gives up on this send after a timeout,
//     without a trace: dropping is its policy]: the same function sends the
//     same value on the same channel in a blocking select that gives up
//     when a timer fires (time.After, a Timer's C) and leaves no trace when
//     it does: a publisher with a configurable wait, whose default is the
//     zero wait. A timed send that returns an error or logs does not count;
//   - [audit: the receiver takes from this channel without waiting: a
//     pool or free list]: every receive of the channel in the package is a
//     case of a select with a default, or comes after its function closed
//     the channel (a janitor that frees what is left on shutdown), and one
//     of them merges what it takes with what its default makes (case b =
//     <-free: default: b = new(T)).
//     A channel that comes from a parameter whose callers are out of sight
//     is any channel of its type: when that is a channel type the package
//     declares (type FreeList chan []byte, whose Borrow takes a buffer or
//     makes one and whose Return puts it back), every receive on a value
//     of that type counts, unless a value of it is converted to another
//     channel type, whose receives do not say what they take from;
//   - [audit: a newer value replaces it (coalescing)]: the function
//     empties the channel (a receive in a select with a default) before the
//     send, so the value still pending when the send fails is as new;
//   - [audit: the channel holds one value, and a pending one already
//     carries the news (coalescing)]: the value is a bool and every channel
//     the send may be on is made in the package with capacity 1, a mailbox
//     for a notice, not a queue (a newer interval or leader dropped behind
//     an older one is lost news, and is reported);
//   - [audit: the one waiting for it gives up after a while, and a late
//     answer has no one to go to]: the channel is a reply slot that only
//     its maker receives from, once at least in a select that can give up
//     (a timeout, a context);
//   - [audit: the channel is one a caller handed to this package, and that
//     caller sizes its buffer]: every channel the send may be on is loaded
//     from a field, map, slice or global into which the package stores
//     only channels it was given as parameters (os/signal's Notify), so
//     the caller chose the buffer, and the package's contract with it says
//     what a full one means;
//   - [audit: the dropped value is not owed to a caller or a request]: the
//     function computed it from its own state (a field of its receiver, a
//     clock, a global, a call's result), and can compute it again.
//
// WRONG: a client that stops reading loses replies, and nothing shows it.
//
//	func (c *client) reply(r Response) {
//		select {
//		case c.responses <- r: // reported
//		default:
//		}
//	}
//
// RIGHT: pick the overflow contract of the traffic, and make the drop
// visible. There are three:
//
// Refuse: the caller learns the value was not taken and acts on it (it
// retries later, a sweep redelivers, the request fails with a clear
// error). This is the contract for data that must not be lost, as a
// deliver that cannot be queued is refused to the delivery consumer,
// which leaves the message to its sweep:
//
//	func (r *router) deliver(f frame) error {
//		select {
//		case r.queue <- f:
//			return nil
//		default:
//			return fmt.Errorf("runner queue full for deliver %s", f.id)
//		}
//	}
//
// Fail fast: a command whose caller is waiting fails at once, with an
// error the caller sees, instead of waiting behind a stream that does not
// drain:
//
//	select {
//	case r.queue <- cmd:
//	default:
//		return nil, status.Error(codes.Unavailable, "runner busy")
//	}
//
// Best effort with a log: a signal that may be dropped (a notification, a
// progress update, a reply to a client that stopped reading) is dropped
// with a warning and a counter, so a client that stopped reading shows
// from outside:
//
//	select {
//	case c.responses <- r:
//	default:
//		n := c.drops.Add(1)
//		c.logger.Warn("client is not reading; reply dropped", "req", r.id, "dropped_total", n)
//	}
//
// Not reported, because nothing is lost:
//
// Wake-up signals that coalesce. A send on a channel whose element type
// has size zero (chan struct{}) carries no data: when the buffer is full,
// a pending signal already stands for the dropped one. The same holds for
// a send of a constant (done <- true, errc <- nil), which says only that
// something happened, and for a channel of errors, a failure signal whose
// first error wins: a pending error already says that something failed.
//
//	select {
//	case s.wake <- struct{}{}: // not reported
//	default:
//	}
//
// A reply slot whose reader takes no more values than the buffer holds:
// the channel is made in the package with a constant capacity at least
// the number of receives, none in a loop, and it is not handed to other
// code, except as a one-slot reply channel is: returned to the caller
// that waits on it, or captured by a reply handler that is registered. A
// value that finds the buffer full is one nobody would receive (the first
// answer wins).
//
// A one-shot slot, whose default never runs. Every channel the send may
// be on is held in a field into which the package stores only channels
// made with a constant capacity of at least 1, and every send on that
// field, in a select or not, is followed on every way out by close of the
// same channel: one value per channel, and it fits. A slot kept in a
// local map until its answer is followed through the map (pending[id] =
// tr.done; done := pending[id]), as long as the map never leaves its
// function:
//
//	delete(pending, id)
//	select {
//	case done <- state: // not reported: the slot's one value
//	default:
//	}
//	close(done)
//
// A value that stays where it is until the send succeeds: it is read from
// a field, slice or map that the send case writes (case b.c <-
// b.backlog[0]: b.backlog = b.backlog[1:]), or built from an element the
// send case marks done (case w.ch <- resp(w): w.compacted = true). When
// the default runs, the value is still there to be sent next time. The
// same holds for a default that goes round the loop to the same select
// with the same value, after a pause or after draining a stale pending
// value: it retries.
//
// Test code: sends in _test.go files and in packages of test helpers
// (a package named testutils, testutil, testing or ending in test, as
// grpctest and httptest do), unless -test or -silentdrop.tests is set. A
// test that needs a value it dropped fails or hangs waiting for it, which
// is not silent.
//
// The pass does not judge whether the trace is the right one (a debug log
// for data that must not be lost), nor whether a caller acts on a returned
// status. A select in generic code whose element type is a type parameter
// is judged like any other. The tiers are imprecise where the code is: a
// value built by a call from an owed one (toEvent(msg)) is not followed,
// so it is an audit finding; a one-slot channel whose reader wants every
// value is audited as coalescing; and a channel made by another package
// of the same program counts as one a caller handed over. So is the
// search for a trace: a struct built in the default only to be handed to
// a call that cleans up (conns.Close(connKey{host, port})) counts as a
// record of the drop.
//
// Suppress a drop that is deliberate with a reason:
//
//	case c.latest <- snap: //sendlint:ignore silentdrop the reader only wants the newest snapshot; the next one follows in a second
package silentdrop
