// Package baresend defines an Analyzer that reports channel sends that can
// block forever because their receiver may stop receiving.
//
// # Analyzer baresend
//
// baresend: report channel sends that can block forever when the receiver stops reading
//
// A send on a channel blocks until a receiver takes the value or the buffer
// has room. When the receiving side can go away (a client disconnects, a
// reader exits on shutdown, an owner gives up after a timeout), a bare send
// wedges its goroutine forever, silently. When that goroutine serves many
// clients (a router's shared reply path, a stream's reader, a fan-out loop),
// one slow or vanished client stalls all of them.
//
// WRONG: the stream's reader replies to each client on the client's channel.
// If one client stops draining it, the reader blocks and every client on the
// stream stops receiving replies.
//
//	func (s *stream) forward(resp Response) {
//		s.lock.Lock()
//		tr := s.requestsToClients[resp.ID]
//		s.lock.Unlock()
//		tr.responses <- resp // reported
//	}
//
// RIGHT: give up when the client is gone, and make the refusal visible.
//
//	select {
//	case tr.responses <- resp:
//	case <-tr.ctx.Done():
//		s.metrics.abandoned.Inc()
//	}
//
// The pass reports, at the send's arrow:
//
//   - a send on a channel the sending function does not own: one loaded from
//     a struct field, a map, slice or array element, a global, a parameter
//     whose callers are not all visible in the package, or a channel
//     received from another channel. A send in a loop whose channel changes
//     per iteration (a fan-out over receivers) says so: one slow receiver
//     stalls every later one. For a field or a global, the receivers the
//     package shows decide: one that can give up (a select with a default or
//     another live case, after which it can return) is named in the report;
//     when every receiver is visible and each waits with a plain receive,
//     the send is one half of a handshake whose other half is waiting, and
//     is not reported. Nor is a result slot: a field whose channel has room
//     for exactly one value, is made with each object that holds it, and is
//     sent on outside loops (a done, error or final-response channel), nor
//     a reply slot taken out of a registry map before it is answered;
//   - a send in the body of a select case (the select may have a default: the
//     send inside the case is still bare);
//   - a blocking select whose cases are all sends;
//   - a send from a goroutine on a channel its starter made, when the starter
//     can return without receiving it: a select with a timeout or ctx case, an
//     early return, or taking the first of N answers (the leaked sender);
//   - a send on a channel made locally whose receiving goroutine can return
//     before the channel is drained (it exits on a drain, stop or ctx signal,
//     or when its own stream fails), or that nothing receives from.
//
// Liveness. A send that is a case of a select is not reported when the select
// has a default, or when another case receives from a channel that can fire:
// ctx.Done(), a stop, quit or done channel, a timer, or any channel that some
// code may send on or close. A receive on a channel that nothing can ever send
// on or close (the nil channel, or a channel made in the package and never
// sent on, closed or passed on) is not liveness. The pass does not judge
// whether a live case is the right one; it asks only whether the goroutine has
// a way out.
//
// Capacity. A send on a channel made in the package is not reported when the
// buffer provably has room for every send: make(chan T, n) with at most n send
// sites, none in a loop (errc := make(chan error, 1) with one send), or
// make(chan T, len(xs)) with one send per element of xs. Once the channel
// escapes to code the package cannot see, only the sends made before the
// escape are counted.
//
// Guaranteed receive. A send from a goroutine is not reported when its
// starter receives on every path before returning, or, for N senders,
// receives until the channel is closed or exactly N times. Sends are counted
// per path (three sends on three exclusive error paths are one value), loops
// with a constant bound count their trips, and a send that puts back a value
// its function took from the same channel (a semaphore or a token) uses no
// room. Paths through t.Fatal, log.Fatal, os.Exit and runtime.Goexit end
// there.
//
// Not reported: close(ch); sends on channels from calls, type assertions or
// other values the pass cannot follow; sends on a channel made in the package
// that is passed to code outside it (the receiver is unknown).
//
// Generators. A function that returns a channel its own goroutine sends on
// is not reported: whether the caller drains it is not visible from the
// generator, and in real code generators size their buffer for what they
// send. Measured before deciding: the standard library has one generator
// outside tests, and grpc, connect, raft, the etcd server and nats-server
// together have five; each either buffers every value it sends or sends a
// single result into a buffer of one. Reporting them would have added only
// noise.
//
// A default is not a fix by itself: it trades the wedge for a value lost
// without a trace, which silentdrop reports unless the default makes the
// drop visible (it returns a status, logs, counts or hands the value on).
//
// Suggested fix. When a liveness channel is in scope at a bare send (a
// context.Context parameter or variable, a closure's captured ctx
// included, or a stop, done or quit channel of empty element type: a
// variable in scope or a field of the method's receiver), the finding
// carries a fix (sendlint -fix) that selects on it:
//
//	select {
//	case tr.responses <- resp:
//	case <-ctx.Done():
//	}
//
// The liveness case gives up the send and goes on after the select. That
// is not a silent drop: the value is abandoned only when the work it
// belongs to was cancelled or the component is stopping, so nobody is left
// to read it, and the cancellation is the visible event, with its cause.
// When the function returns an error last and the send is followed by a
// return, the ctx case returns ctx.Err() (with zero values before it)
// instead, so the caller learns why; the fix never returns anywhere else,
// since an early return could skip an Unlock or a Done after the send. No
// fix is offered without a liveness channel in scope, and the pass never
// suggests a default.
//
// Test code (_test.go files and test-helper packages such as grpctest) is
// analysed but not reported unless -test or -baresend.tests is set. On the
// standard library and on grpc, etcd, nats-server and raft nine in ten
// findings were in tests, where a test that blocks fails on its own
// timeout instead of stalling a server in silence.
//
// Suppress a finding that is deliberate with a reason:
//
//	tr.responses <- resp //sendlint:ignore baresend the client reader never exits before the server
package baresend
