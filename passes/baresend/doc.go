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
// The pass reports, at the send's arrow, a send it can prove may block
// forever: an execution in which no receiver remains while the sending
// goroutine can still reach the send. Each finding names its proof in the
// message and as related information (for a receiver that goes away, where
// it waits and the case or return by which it leaves for good):
//
//   - the receiver that goes away: a receiver of the same channel (found
//     through fields, map, slice and array elements, globals and the
//     parameters of functions whose callers are visible) that can stop
//     receiving — a select with a default or another live case, after
//     which it can return without first ranging over the channel to its
//     close, or a receive loop it can leave before the channel is closed
//     (a write that fails) — and that is the channel's
//     last receiver: the function that made the channel, or a goroutine
//     started with it (by that function, or by a Start method called
//     alongside its constructor), reached through calls outside loops; or
//     a method that lets one call per object past a started flag, tested
//     and set under the object's lock and never cleared, receiving from a
//     channel made in the call that made the object (a manager's Start
//     that waits for its runnables' first error or its context); or
//     a service's loop that gives up on its context, handed as a method
//     value by that function to a runner that never runs it again once
//     that context is done (one that runs it once, or a Serve that keeps
//     one context with it and checks that it is not done before each run,
//     here or in a dependency); or a role's loop that a node's main loop
//     runs again and again (a follower's, a leader's), when that main loop
//     is started once with the channel and returns only on a stop channel
//     the package closes: once it is closed nothing receives; or a
//     connection's writer that gives up on a stop channel and is started
//     again, for the same channel, only by one handler, itself or through
//     an unexported function (a reconnect) only it starts, when that
//     handler closes the stop channel and can return without the restart
//     (auto-reconnect switched off): a publish that passed its check just
//     before the connection was lost then waits for good once the queue
//     is full.
//     The send is unbuffered, or the channel is a queue to that consumer,
//     or, for a reply slot its maker waits on, more values than the buffer
//     holds are shown to reach it (the send loops on the same channel, a
//     fan-out ranges over the registry the channel is kept in, or the
//     maker hands the channel out in a loop). A loop over a map that
//     deletes the entry it sent to before its next trip answers each
//     entry once (a set of pending requests), and shows no such thing;
//     nor does a list of fresh one-slot channels that the answering
//     function takes out whole in the critical section it read it in,
//     every insertion holding the same lock (ws := s.waiters; s.waiters =
//     nil), whose answers are not reported at all;
//   - the owner that returns: a goroutine sends on a channel its starter
//     made, and the starter can return without receiving it (a select with
//     a timeout or ctx case, an early return, the first of N answers),
//     but not when it starts the senders once per trip of a loop and
//     then receives once per trip of a loop with the same bound, counting
//     from zero by one, with no other way out (for range len(checkers)
//     after a range over checkers), nor when every send relays a value
//     its worker took from a work channel of the owner's (for vm := range
//     work { results <- enrich(vm) }, at most one send a trip) that is
//     sent at most n values, and the owner receives in a loop of exactly
//     n trips, counted the same way (for range vms after a feeder walks
//     vms into work), nor when the goroutine answers once, on one of the
//     channels its starter made for it (the batch on one, the error on
//     another; a close counts as an answer), and every path of the
//     starter passes a select that receives from all of them and from
//     nothing else, and not on the branch where the function the starter
//     handed the sending closure to says it did not hand it on (if err :=
//     m.enqueue(fn); err != nil { return err }, where enqueue only sends
//     fn to an actor loop and returns no error after that send);
//     when the starter defers the channel's close, the message says the
//     send "can block and then panic": it waits until the starter returns,
//     and the close makes it panic; when it defers, before starting them,
//     a wait for a group that counts every goroutine making the send (defer
//     q.wg.Wait(), each query marking itself done), it cannot return past
//     a blocked sender, and the message says the sender hangs it too;
//     a helper that makes an unbuffered channel and returns it with the
//     func that sends on it once (done, shutdown := stop(exp)) makes its
//     one caller the owner, when that caller starts the func with go,
//     only receives from the channel, and can return without receiving;
//   - the consumer that exits first: the goroutine the owner started to
//     receive can return before the channel is drained (a loop that sets
//     each of its channels to nil once it is closed, and returns when all
//     are nil, drains them);
//   - nothing receives from a channel made here and kept here;
//   - a second answer: a request carries a channel made with one slot for
//     it (its unexported field, every store a fresh make), nothing in the
//     package reads that field in a loop, and the handler, handed the
//     request, answers on it after an earlier answer on every path to the
//     send, or after a call handed the request that answers on some way
//     through it, with no branch in between on what the call returned
//     (process(m) answers a rejected message; then a failed signal to its
//     dependents answers again), or when a function hands the request,
//     its parameter, to the handler over a channel field and can answer it
//     first and still reach that hand-off (a request answered at shutdown,
//     then queued anyway for a handler whose drain answers it again): a
//     requester that takes one answer leaves the handler on the second for
//     good;
//   - nothing can receive yet: a loop fills a channel made here, one value
//     per element of a collection, before the function hands the channel
//     out, and the buffer is smaller on some path (a constant, or a
//     caller's limit the code clamps to the collection's length);
//   - the package's own word that its receivers may be gone: another send
//     on a channel kept in the same field (or in the same map, slice or
//     array field) is a select that gives up on a stop channel of the
//     same struct (a channel the package closes and never sends on) or on
//     its context's Done, and this plain send, made by no receiver of the
//     channel and not by the code that closes the stop channel, has no
//     such case (a connection's first packet queued with a bare send,
//     while its reader's packets give up once the conn is closed; a
//     hub's notice to one subscriber, while its broadcast gives up once
//     the hub is closed); a counting semaphore is no such channel. The
//     object must be one that lives through many sends: the sender's own
//     receiver, or an object reached from it. A channel reached through
//     a value the sender is handed (a parameter, a value received from a
//     channel: a request with its reply channel) is audited, unless the
//     sibling runs in the same function or a loop sends on that one
//     value: one reply to a request whose requester may leave does not
//     fill a buffer;
//   - the receiver that waits for itself: the channel's only receiver,
//     a goroutine run once per channel, makes the send itself (or through
//     a function only it calls), and the channel is unbuffered or its loop
//     can come back to the send without taking from the channel (a
//     monitor whose tick queues work on a one-slot channel it alone
//     reads): once the buffer is full the one goroutine that could empty
//     it waits to fill it;
//   - the caller that closes: the channel is a field of a type whose
//     only receivers are its exported methods (a Read, a Next), the send
//     runs on a goroutine the package starts (a read loop), and the
//     type's Close, shaped like io.Closer's, neither takes from the
//     channel nor closes it. A caller done with the value calls Close
//     and nothing else, so a value pending then is never taken: a
//     connection that hands decrypted records to Read, a stream that
//     hands rows to Next. A send by the caller's own goroutine (a pipe's
//     Write) is left alone;
//   - the caller that cancels: the channel is a parameter whose callers
//     are not all visible, handed in beside a context that its function
//     gives up on elsewhere (it receives ctx.Done(), or the Done of a
//     context made from ctx), and the send, in a loop of that function or
//     of a function literal in it, does not (a discovery provider's Run
//     that watches ctx between refreshes and sends each refresh bare):
//     a caller that cancels stops reading, and the next send waits for
//     good. A function that closes the channel tells its caller to read
//     until then, and one send outside a loop may be all the caller reads
//     or has room for: both stay in the audit tier. The same holds for a
//     channel kept in a field, which no receiver in the package reads
//     (its readers take it through an interface), when the sending loop
//     gives up on the context kept in another field of the same object
//     (a retry controller whose loop ends with c.ctx, as its caller's
//     wait does, while its send of the next attempt does not);
//   - a blocking select whose cases are all sends, when one of them has
//     such a proof.
//
// A stop channel is a field its package closes and sends no value on.
// A receiver gives up on it by reading the field, or through a method
// that returns it and takes nothing else (a service base's Quit), in the
// same package or, through a fact, in another: a loop that embeds a
// service base of another package and gives up when the service quits
// stops for good, and a send after that waits forever. A method that
// returns a channel of values (a base's Events) is no stop channel. The
// Done of a context kept in an unexported field is one when the package
// sets the field only on objects it has just made, from the caller's
// context or one that context.WithCancel (WithTimeout, WithDeadline)
// made: once done it stays done for the object's life. A field set again
// on a live object (a Start that makes a new context for each run) is
// not, nor a root context no one cancels. A
// closed stop channel is taken as final even where a Reset makes a new
// one (a service base's Reset that panics unless the service overrides
// OnReset); restarts within the package are weighed where the loop is
// started again (the reconnect above).
//
// A select with a way out is reported in one case: its one send is on a
// field channel whose every receiver gives up for good on a stop channel
// of the same struct, which the package closes, and its only way out is
// the Done of a context its function is handed (the caller's). Once the
// loop has stopped, a call that reaches the select, or raced past a check
// of the stop channel, waits until the caller's context ends, for good
// with one that never does (a task loop's Run after its Close):
//
//	select {
//	case l.tasks <- t: // reported: also give up on <-l.done
//	case <-ctx.Done():
//	}
//
// And one more, which waits without end rather than for good: the
// hand-off of a loop that serves many consumers, one message at a time,
// to the one the message is for. The select's function sends on a field
// of a consumer it is handed (a stream, as the method's receiver or a
// parameter), has no default and no timer, and its other cases receive
// only that consumer's channels (its close, the Done of its context) or
// its function's parameters (the whole connection's context); a call of
// it in a loop of this package, on the loop's goroutine, hands it a
// consumer looked up anew on each trip and the same parameters. A
// consumer that stays open and stops reading then holds the loop, and
// every other consumer waits behind it: head-of-line blocking, which a
// timeout that fails the slow consumer, or a queue per consumer, ends.
// Not when a goroutine of the package takes from the consumer's channel
// in a loop: that relay keeps reading while the consumer is open. In the
// audit tier when the consumer's reading side is out of sight: nothing in
// the package receives from the channel, no function returns it to the
// consumer's caller, and it was not handed in by one (a subscription
// whose own forwarder reads it through reflect.Select, and never stops
// reading while open).
//
//	for f := range c.frames {
//		c.streams[f.id].receive(c.ctx, f)
//	}
//	func (s *stream) receive(ctx context.Context, f *frame) error {
//		select {
//		case s.recv <- f: // reported: a stream that stops reading stalls the others
//		case <-s.recvClose:
//		case <-ctx.Done():
//		}
//	}
//
// A send in a loop whose channel changes per iteration (a fan-out over
// receivers) says so: one slow receiver stalls every later one.
//
// The message names the channel's type and, when this package makes every
// channel that reaches the send, its buffer: a constant (cap 1000), or
// the expression the make was given (cap len(peers)), so that a reader
// sees at once what the buffer was sized to. A field another package
// declares may hold that package's channels too: the message then prints
// no buffer, and each make of this package is named as one the field may
// hold ("channel made here (cap 1); Err is a field of package
// htlcswitch, which may fill it with channels of its own").
//
// Audit tier. With -audit (or -baresend.audit), the pass also reports the
// sends it can neither prove nor rule out, each labelled with what the
// proof lacks: "no receiver of it is visible in this package" (a send on a
// parameter, or on a field no code here reads); "its receiver X can stop
// waiting, but may run again for the same channel" (a method that waits
// once per request, a pool of workers, a loop whose runner makes a new
// context for each run or runs it again without asking whether its
// context is done); "its buffer (cap 1) is not shown to
// receive more values than it holds" (a one-slot reply per call); "its
// buffer (cap params.MaxAttempts) is sized by a value the package also
// compares with a count, and each goroutine sends it one value: when that
// count is of the goroutines they all fit, and the pass cannot tell" (a
// hedged call that starts an attempt on each tick of its retry timer,
// re-armed only while attempt < params.MaxAttempts, from a loop with no
// count of its own: the bound is a protocol the pass cannot count; runs
// started from a loop over a slice or up to a number are counted against
// the buffer, and runs that send twice, a send of the owner, a size
// compared only with constants, or a constant size keep the proof); "its
// buffer holds one value from each goroutine (*S).start starts to fill
// it; it can fill up only if (*S).start runs again for the same value"
// (a field made with len(s.copiers) slots, one copier goroutine started
// per element right after, and no other sender: a second start would
// let the first run's late senders into the new buffer); "the buffer
// holds a value from every run and this run sends only this one: it
// blocks only once a run of F that sends more took its slot" (one
// goroutine per witness into make(chan error, len(witnesses)), where one
// path sends twice for want of a return: that send is the default
// finding, and the sends that report once point at it; a connection's
// reader and writer with a slot each, where the reader reports its end
// once, or a panic from a deferred recover instead, and the writer
// reports every exception reply and goes on); "the send
// runs only while closed is false, and its receiver is not shown to stop
// before closed is set" (a send guarded by a shutdown flag that a Close
// sets before it cancels the receiver, where the pass cannot see the lock
// that orders them); "the send runs only while state is not closed, under
// a lock, and its receiver is not shown to stop only after state is set
// under that lock" (a state tested under a lock every caller holds, where
// what stops the receiver, a close request from a Close whose callers are
// out of sight, is not shown to come after a write of the state under
// that lock); "its channel is made only in test
// code"; "its receiver stops only when test code closes its stop channel"
// (a loop whose stop channel only a test, or an unexported function only
// tests call, closes: in the shipped program it never stops); "made in main, at most once per element of a collection, and main
// waits for no goroutine" (a command that leaks one generator per
// argument: the blocked senders are a bounded few, stall no one, and end
// with the process; a main that serves in a loop without end, or waits on
// a WaitGroup, is still reported); "its receiver is the sending goroutine
// itself" (a loop that queues its own errors to itself, directly or
// through a function only it calls: while it sends, it has not stopped;
// when it can fill its own buffer, the send is proven, as above); "its receiver is started only after this send" (a
// constructor that queues a first error before it starts the loop that
// reads it); "its receiver is stopped only after (*S).Close waits for
// s.workers, which counts every goroutine that makes this send" (a
// shutdown that waits for the senders' WaitGroup, or a closer whose
// methods count them, before it closes the receiver's stop: the receiver
// outlives them, unless a sender starts after the wait), or "... is
// stopped after ..., which counts a goroutine that makes this send" when
// other stops or senders are not ordered by that wait; "its receiver X
// is stopped only by G, which makes this send and does not reach it after
// the stop" (an events loop that alone closes its dispatcher's stop
// channel, while it handles the close request, and then returns; a
// constructor's send before it starts that loop cannot find the stop
// fired either; a call handed to a helper that runs it in place, such as
// a retry loop, stays on the caller's goroutine); "the send runs
// only when (*W).draining is true, and its receiver gives up here only
// when it is false" (a dispatcher that drains in one mode and gives up on
// a stop in the other, asked the same question as the send); "its
// receiver X stops only on the value this send makes: it blocks only if
// the send runs twice for one channel" (a Close that hands its loop the
// close request the loop returns on, and nothing else stops the loop: it
// can be gone only after taking an earlier Close's request); "every stop
// of its receiver X closes the channel too, or is the value this send
// makes" (a producer's loop that returns on its close request, or when
// its shutdown closes its data and command channels together: a send left
// behind panics, a bug of another kind; a send in a loop, such as a Flush
// that polls the loop until its buffer is empty, is woken by the close on
// whichever trip it waits); "(*L).Close does nothing, and
// the package closes the channel itself" (a mux's listener, whose callers
// call Accept until it fails, which it does once the mux closes the
// listener's channel after its handlers are done: they stop on that
// close, not on a Close that only returns); "its
// receiver X stops only when told to, and this send is made once per call
// into a buffer of 100: it blocks only if callers go on calling after the
// stop until the buffer is full" (a loop stopped by its owner's Close, a
// closer, or a context whose cancel the package keeps, fed one value per
// call of an exported function, or once per partition by a loop that
// calls each of a consumer's partitions in turn, calls from test files
// not counted: whether callers may go on after the stop is the API's
// contract; a loop or goroutine of the package that keeps
// sending, an unbuffered send, a loop that can return on an error of its
// own, or one that gives up on a context its callers handed in stay
// default findings, and so does a method of an unexported type that an
// interface of an imported internal package names: the connection that
// calls it back is no user, and goes on calling whatever the users have
// stopped); "its receiver X stops only once it takes a stop request from
// this channel, and takes every value sent before it: a send waits for
// good only behind more than 10 values sent after the request" (an events
// loop that returns on the close request it takes among the acks and
// seeks it serves, or on a stop channel it closes itself after taking
// it, and nothing else stops it: the channel keeps its values in order,
// so only values sent after the request wait, a buffer of them; a send
// the package repeats, in a loop or on a goroutine of its own, directly,
// through a closure or through an interface, or one on an unbuffered
// channel stays a default finding); "its receiver X can stop, but Y receives from it
// until it is closed" (a channel handed on: its first reader stops once
// its work is done, and a loop that ranges over it to its close takes
// over; whether that loop runs whenever the first has stopped is a
// question of order); "its receiver X, once it stops, keeps receiving one
// value for each entry of peers: a send blocks only if its sender has no
// entry there" (a server loop that, told to quit, ranges over the dials
// in flight or waits until its map of peers is empty, one receive a trip,
// or counts down a counter of running senders, "one value for each sender
// counted in active": whether every sender has its entry or was counted
// is more than the pass can see; a way out that skips the drain, or one
// that stops before zero, stays a default finding); "its receiver X,
// once it stops, keeps receiving until Y, which sends, takes its request
// on uninstall: a send blocks only if made after that" (a subscriber that
// unsubscribes on its way out, deferred or on every path, and takes
// events from the channel until the event loop that sends them takes its
// request to be removed: whether the loop ever sends to a removed
// subscription is more than the pass can see; a drain that can also give
// up on another case stays a default finding); "its receiver X, on its
// way out, runs Y, which takes values from it until the sender's last
// one, on readErr: a send blocks only if the drain is skipped" (a
// client's dispatch loop that, in a function it defers, takes responses
// until its reader's read error, which the reader sends last before it
// returns: whether the drain runs whenever a reader lives, a flag the
// loop keeps, is more than the pass can see; a reader that sends after
// that value, or a loop with no drain, stays a default finding); "its
// receiver X closes the channel as it stops, unless it saw it closed: a
// send left behind panics rather than waits" (a loop that closes its own
// control channel on every way out, or a collector that closes its
// results once it has one per request handed out and otherwise leaves
// only at the end of its range: a late send is a bug, but not one that
// waits for good); "nothing its caller hands F (no context, no other
// channel) can tell the sender to stop: reading to the close is the
// caller's part" (a generator over a byte slice, or a zone transfer
// reading its connection: no context, channel or callback among what F
// is handed, nor a context or channel a few fields into it, so a fix needs
// a new API). A receiver
// of the same field on another struct is not this
// channel's receiver when both structs are composite literals the code
// names (a subscription made by Consume and one made by Fetch): its
// stopping proves nothing about the other's sends. A receiver that stops only on a value it was sent (a stage that
// returns on the message its sender sends last) is no proof.
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
// Dropped owners. A way out can belong to the object whose channel the
// select sends on: a stop channel of its own, or what a method of its
// closer returns (c.closed.Done()), fired only by closing or sending on
// that field or calling another method of it. Such a select is reported
// when a function that makes the object (itself, or through a helper of
// the package that makes it and starts its goroutine, c := newConn())
// starts, through the calls that hand the object on, the goroutine that
// sends, and can then return without it (a failed handshake's return
// nil, err) while nothing on that path, nor any goroutine it starts other
// than the sender, receives from the channel or fires the way out, and
// the object went nowhere but into the package's own goroutines,
// closures, objects and methods. After that return no one can call its
// Read or its Close, so the goroutine waits for good at its next send:
// for a buffered channel, the send must be able to run again. The
// finding names the return, the go statement and the make. A constructor
// that closes the object on failure, returns it with the error or inside
// it, registers it somewhere first, or lets the goroutine also give up on
// a context from outside the object is not reported, nor is a send that
// runs only after a test of the object's own flag or state (it may run
// only once the constructor has succeeded). The same proof reports a
// plain send on such a channel whose receivers are the object's own
// methods (a Next no one can call once the watcher is dropped), unless
// the buffer has room for every send.
//
// Capacity. A send on a channel made in the package is not reported when the
// buffer provably has room for every send: make(chan T, n) with at most n send
// sites, none in a loop (errc := make(chan error, 1) with one send; a
// helper's sends count once for each call of it that one run of the
// goroutine can make, and without bound when a loop calls it; a send in a
// loop counts once when a flag lets it through once: it runs only while
// a boolean variable assigned nothing but constants has one value, and
// every way on from it round the loop finds the other value (if first {
// ids <- id; first = false }); a send on
// a branch that tests a parameter against a constant counts nothing for
// a start that passes another constant: go cp("stdin", ...) of a copier
// that signals only if kind == "stdout" || kind == "stderr"), or
// make(chan T, len(xs)) with at most one send per element of xs, whether
// xs is a slice or a map, made by the loop or by a goroutine it starts per
// element, on one branch or another; or a loop that counts from s up to
// m, for a buffer of m - s chosen on the same branch as s (a pool that
// grows from its old size, or is rebuilt from zero); or the loop of the
// channel's one sender (a goroutine, or the helper it calls once) bounded
// by the capacity, counting the sends of a goroutine it starts each trip,
// and bounded too when it walks the slice the owner hands it (make(chan
// error, len(batches)); go dispatch(results, batches), which starts a
// writer per batch); or a result channel whose every send relays, at
// most once a trip, a value a worker ranging over a work channel of the
// owner's took, when that work channel is sent no more values than the
// result channel's capacity (results := make(chan error, len(parts)); a
// pool of workers each for p := range work { results <- f(p) }; the owner
// sends each part on work once): however many workers run, there are no
// more results than parts; or the first sends on a channel just made into a
// struct nobody else has yet, up to its capacity, where handing the
// struct to this package's methods that touch only its other fields
// (t.resetThresholds()) still leaves it to the function; or the first
// send on a buffered channel its block just stored into the field it
// sends on, with no call between (t.buffer = make(chan batch, 1);
// t.buffer <- first), also when a closure captures t and each use loads
// it anew; or the first send, not in a loop, of the one unexported
// function that sends on an unexported field, when every store into the
// field is a buffered make into a struct just allocated and that function
// runs once per object, started outside any loop on an object its caller
// has just made or got from a constructor (a dispatcher that arms its
// reader, t.readNext <- struct{}{}, before its loop hands tokens back);
// or, in that dispatcher, a token handed back after a take from another
// unexported channel field of the object (case p := <-t.packetIn:
// t.readNext <- struct{}{}), once per take, when every send on that
// field, in the reader or in a helper every call of which is so placed,
// follows a take of a token, once per take, nothing closes it, and
// neither channel goes anywhere but into sends, receives and closes:
// each token answers a packet sent after the last token was taken, so
// the one slot is empty at every send, whenever the reader returns;
// or the one send on a buffered channel a function just made
// into a field of its parameter, when every caller passes a struct it has
// just made and shown to nobody, and the function has not handed it on
// either (c.err = make(chan error, 1); select { case t.callCh <- c: case
// <-t.closing: c.err <- errClosed }: on the closing branch the call was
// never handed over); or a channel just made into a struct
// nobody else has yet, filled in a loop that tests len(b.ch) < n, its
// capacity, before each send; or a goroutine of that struct's maker that
// sends at most n - len(b.ch) values, counted by a loop that steps its
// counter at the send, after the maker's last send (a fetch that takes
// what is ready, then lets a goroutine fill the room left); or a slot that
// travels inside a message of an unexported struct type (first :=
// make(chan *RPC, 1) stored in the message, the message sent on a channel
// once, or offered in a loop by a select case whose channel the loop sets
// to nil once it fires), where every send on the slot reads it from a message just
// received, at most its capacity times per message. Once the channel
// escapes to code the package cannot see, only the sends made before the
// escape are counted. A goroutine that also reports a panic on the channel,
// from a closure it defers once and last that sends only when recover()
// returns a panic, sends one value either way when the body's send is the
// last thing before its return with nothing between that can panic
// (errc <- work() after defer func() { if r := recover(); r != nil {
// errc <- ... } }()). Workers that take numbers from a counter they share
// (n := next.Add(1) - 1; if n > last { return }), one number a trip, and
// send at most one value per number, fill at most as many slots as the
// test lets numbers through: a buffer of last + 1 - start, the counter's
// start set once before any worker runs and changed by nothing but the
// workers' additions, has room for every send, however many workers run
// and however early the owner stops receiving. A counter made or reset
// each round of a loop that keeps one channel hands every number out
// once per round: no proof. Goroutines the owner starts one at a time,
// each after taking a token (a buffer from a pool of n it filled where it
// made it, or a place of a semaphore of n), where a goroutine that sends
// keeps its token for good and one that gives it back sends nothing,
// send at most n values: a buffer of n has room for every one (an
// uploader whose failing parts report on errc and keep their buffer). A
// token given back on every path, by a deferred release, frees a place
// for the next sender: no proof. A one-slot channel made with each object
// that holds it carries one value when every send on it waits for the
// first step of a counter of the same object (if b.failed.Add(1) == 1 {
// b.err <- err }; if b.pending.Add(-1) == 0 { b.done <- v }; if
// b.stopped.CompareAndSwap(false, true)), however many workers send: the
// counter only moves one way, or only by that compare-and-swap, and is
// set otherwise only by the object's maker before anything else sees it.
// A counter set back after the object is shared (a retry, a reset of the
// whole object), stepped both ways, or of another object, proves nothing.
// Without such a guard, a method that sends once per call on such a slot
// still sends many values when a worker started per key calls it.
//
// Stop requests. A channel of reply channels (quit chan chan error) whose
// receiver stops only once it has taken a request from it, on every path
// (the request ends its loop; an error that ends the loop first is
// followed by a wait for the request, if errc == nil { errc = <-quit }),
// cannot lose that receiver before the first request arrives: a send on
// it goes to the audit tier, since only a second request for the same run
// (a second Close) can block. Whether a variable set by the receive is
// still nil is followed along each path, and so is what a branch learns
// of any variable it tests against nil: a loop that ends on the request
// or on an error, followed by if err != nil { errc = <-quit }, takes the
// request on every path. So does a branch on a sentinel error a call
// returned (case err == errTerminated: return) when the callee, a
// function of this package, returns that sentinel only from a case that
// took the request itself, and every other result it returns is a
// constant or another package variable. A channel of other values may
// carry the stop among the work it is there for, and work sent after the
// stop is stranded: it stays reported.
//
// Guaranteed receive. A send from a goroutine is not reported when its
// starter receives on every path before returning, or, for N senders,
// receives until the channel is closed or exactly N times, or counts its
// senders down from N and returns only at zero. So is a worker's result
// when its starter counts the jobs in flight (one up for each job it
// hands to the workers on a channel only it sends on, one down for each
// result received) and leaves its loop only when none is, and the worker
// sends at most one result per job it took, after taking it; a count
// that falls without a receive, a second result for one job or a way out
// with jobs in flight stays reported. So is an attempt of a retry loop
// that starts one goroutine a trip and receives, on every way back to
// the go statement, from the channels those goroutines alone send on,
// when each attempt sends at most one value on them in all: one attempt
// runs at a time, and the one still running when the loop gives up finds
// room in a buffer, or, on a channel with none, finds the loop waiting
// for it on every way out when that channel is the attempts' only one
// (cancel(); <-subscribed; return). An attempt started on a timer without
// that receive, a second send per attempt, or an unbuffered channel the
// way out does not wait on stays reported. A loop that does not wait for its one writer but
// starts the next only while a done variable is nil, sets it to a fresh
// channel for each run and back to nil only once a receive from it fired,
// counts that reset as the receive, when the run closes done only on
// paths without a send: a failed write leaves done set, so no write
// starts after it (a run that closes done after reporting, or a reset on
// a timer, stays reported). So is the answer of a worker started once that
// replies to its owner's requests one at a time: only the owner sends on
// the request channel, only the worker on the buffered reply channels,
// the worker takes a request before each reply, and the owner receives a
// reply before each request after the first (a console's line reader:
// prompts <- p, then a line or an error back). At most one reply is owed
// when the owner returns, and it has room; a prompt on a timer with a
// reply still owed, two replies to one request, or a second asker stays
// reported. A select case on a
// channel that only the sending goroutine closes, after its sends (a
// deferred close(done)), or sends on with nothing sent on the first
// channel after it (a reader's error, its last word before it returns;
// started once, not in a loop), counts as receiving all it sent: it fires
// only once the sender is past them. Sends are counted
// per path (three sends on three exclusive error paths are one value; a
// send that is a case of a select counts only where that case fires, so
// a goroutine that sends its result, or on its quit case that it is
// exiting, sends one), loops
// with a constant bound count their trips, a goroutine whose callback,
// run any number of times by a walk it is handed to, sends only while a
// bool of the goroutine is false and sets it to true right after (before
// any call), with its own "none found" send also behind that test, sends
// one value (a call before the flag is set, or a send without the test,
// stays counted as before), and a send that puts back a value
// its function took from the same channel (a semaphore or a token) uses no
// room. Paths through t.Fatal, log.Fatal, os.Exit and runtime.Goexit end
// there. A token put back in a deferred closure, after it was taken from
// the same field, refills too, and so does a token given back to a pool
// its maker filled to the brim (make(chan T, n) filled by a loop of n, or
// of cap of the channel, trips). A counting semaphore made in the function
// (sem <- token before each worker, every worker giving it back on every
// path, by a receive of its own, a helper's, or a deferred func() { <-sem
// }()) waits only for a worker to finish, and is not reported; nor is one
// whose every holder, wherever it runs, gives its place back itself, by a
// receive on every path before it acquires again or returns (sema <- 1;
// read(path); <-sema). A receive
// skipped only when a flag says it already happened (if !stopped { <-stop
// }, with stopped set to true at the receive) counts as made: the search
// for a path that returns without receiving follows booleans assigned
// constants. A drain's sentinel is not reported: a
// constant (nil) that no other send on the channel can send, from a
// goroutine whose starter then receives from the channel until it takes
// that value or the channel is closed, before it returns or starts the
// goroutine again; a second sentinel, for a second drain behind the first,
// counts when nobody but the drain's goroutine can take the first.
//
// Shutdown guards. A send is not reported when it runs only after a test
// of a shutdown flag or a state (if s.closed { return }; if st :=
// pc.state(); st == closed { return }, the state read plainly, atomically
// or through a getter; a shutdown counter that only an atomic Add raises,
// tested as zero: if atomic.LoadInt32(&sm.shutdown) != 0 { return }),
// the test and the send are one critical section
// of a lock (held by the function, or by every caller at every call), and
// everything that can stop the receiver runs only after a write of a
// value the test stops, made under a lock of the same class: the closes
// and sends of the stop channels it gives up on, the calls of the cancel
// of the context it runs with (made by context.WithCancel from a root,
// its cancel kept in a field), the sends of the request type it returns
// on (case *closeRequest: return). While the sender holds the lock the
// write has not happened, so the receiver is still running. Every use of
// those channels and of the cancel field must be in sight, and nothing
// may write a value the test lets through back (a state that returns to
// ready). A test counts only on the branch every path to the send takes:
// in if st == busy || st == draining { send } the send runs in either
// state. A test made outside the lock, or a stop made without it and
// without the write first, excuses nothing, except on a buffered channel
// when every stop of the receiver follows a write of a value the test
// stops: only sends that pass the test just before that write, more of
// them than the buffer holds, can then block, whatever locks callers out
// of sight hold, and the send is audited
// ("the send runs only while closed is false, which is set before its
// receiver stops: only sends that pass that test just before it is set
// can block, and the buffer holds 8 of them"). A buffer sized at run time
// (make(chan T, cfg.MaxPeers*3)) counts as a buffer, named as the source
// sizes it; on an unbuffered channel one send that races the write is
// enough, and the finding stands. A counter that is also lowered
// (atomic.AddInt32(&f.stopped, -1) in a Resume) is not a shutdown guard:
// a send that passed its test may meet a later Stop.
//
// Not reported: close(ch); sends on channels from calls, type assertions or
// other values the pass cannot follow; sends on a channel made in the package
// that is passed to code outside it (the receiver is unknown).
//
// Generators. A function that returns a channel its own goroutine sends on
// is reported only when it is exported (or an exported function returns
// what it returns, and does nothing else with it) and the goroutine keeps
// sending on the channel in a loop, or makes the send beside another send
// on it that gives up on a liveness case: its caller can stop reading (it
// cancels and walks away, as the goroutine's select on <-ctx.Done()
// expects), and the goroutine then blocks for good. A stream that selects
// on ctx for every value and reports its error with a bare send is the
// common case. One that sends a single value, or has room for every value
// it sends, is not reported. Measured
// before deciding: the standard library has one generator outside tests,
// and grpc, connect, raft, the etcd server and nats-server together have
// five; each either buffers every value it sends or sends a single result
// into a buffer of one. The same holds for channels an exported function
// hands out from a field (a subscription's Channel()), makes, keeps in a
// registry and returns (a broker's Subscribe() <-chan T that adds the
// channel to its map), or takes in from its callers (a Notify(c)): a loop
// that keeps sending on them, or sends on every registered one, is
// reported; a single send is in the audit tier. A channel handed to a
// handler the package starts, or returned only by an unexported function,
// does not go back to a caller the pass cannot see: no proof. Nor does a
// list of waiters that a run answers once, each into a slot of its own (a
// call group's DoChan): the loop walks a call object that every caller
// has just made and hands over once, so a waiter that stopped reading
// leaves its answer in its slot. A list walked again (a retry, or a
// Cancel that answers too) or waiters without a slot are reported.
//
// A receiver in a function the owner calls and waits for (a stream
// handler's process loop, handed the channel) must drain it like a
// goroutine that receives, since the owner returns with it.
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
// Test code (_test.go files, test-helper packages such as grpctest, and a
// function in a shipped file that only the package's tests call, directly
// or from a suite a test file declares as a variable) is analysed but not
// reported unless -test or -baresend.tests is set. On the
// standard library and on grpc, etcd, nats-server and raft nine in ten
// findings were in tests, where a test that blocks fails on its own
// timeout instead of stalling a server in silence.
//
// A test's hook in shipped code is test code too: a send that runs only
// after a test that its field channel is not nil, when shipped code
// leaves that field nil. The field is unexported, and every store into it
// outside _test.go files stores nil, or a parameter of a constructor only
// tests hand a channel: one whose name says it serves tests
// (NewTestSampler, newQueueForTesting), or an unexported one whose
// every call outside _test.go files passes nil (its exported twin's
// newQueue(ctx, nil)). Without the nil test the send is not a hook: the
// shipped program would send on a nil channel, which blocks for good.
//
// Suppress a finding that is deliberate with a reason:
//
//	tr.responses <- resp //sendlint:ignore baresend the client reader never exits before the server
package baresend
