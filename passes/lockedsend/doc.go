// Package lockedsend defines an Analyzer that reports sends that can block
// while a mutex is held.
//
// # Analyzer lockedsend
//
// lockedsend: report sends that can block while a mutex is held
//
// A goroutine that blocks on a send while it holds a mutex makes every
// goroutine that needs the mutex wait for one slow receiver. A reply
// channel nobody drains, or a stream whose peer stops reading (HTTP/2 flow
// control), then stops the registration map, the metrics reader and every
// other caller, not only the one client.
//
// WRONG: every frame to a Runner is written inline under the router's
// sendMu; one Runner that stops reading parks every caller behind it.
//
//	r.sendMu.Lock()
//	err := send(cmd) // reported: send holds the stream's Send
//	r.sendMu.Unlock()
//
// WRONG: the shard's loop takes s.mu for every batch it drains; a writer
// that sends while holding s.mu waits for a loop that waits for s.mu.
//
//	s.mu.Lock()
//	s.batch <- row // reported: its receiver (*shard).loop takes s.mu too
//	s.mu.Unlock()
//
// RIGHT: one sender goroutine owns the stream and drains a bounded queue;
// callers enqueue without blocking, under the lock if they need it.
//
//	r.mu.Lock()
//	select {
//	case r.queue <- cmd:
//	default:
//		err = errQueueFull // refuse now; the caller retries or sweeps
//	}
//	r.mu.Unlock()
//
// RIGHT: the writer takes what it needs under s.mu and sends after it
// unlocks, so the loop can take s.mu while the writer waits.
//
//	s.mu.Lock()
//	row := s.next()
//	s.mu.Unlock()
//	s.batch <- row
//
// The pass finds, at the send's arrow or the call's parenthesis, each of
// these made while the function holds a lock:
//
//   - a channel send that is not a case of a select with default, a select
//     that waits on a liveness case (<-ctx.Done()) included: it waits while
//     holding the lock;
//   - Send, SendMsg and SendAndClose on google.golang.org/grpc streams and
//     the generated interfaces that embed them, and Send on connect's
//     streams; also a call through a func value that holds one
//     (send := stream.Send, a field set by attach(stream.Send), a
//     parameter);
//   - a call to a function that may do any of these, in this package or in
//     another: the message names the chain, and Related points at the
//     blocking operation when it is in the same package.
//
// # Default and audit tiers
//
// A send under a lock is usually backpressure: the sender waits for the
// receiver's next receive, and so does every contender for the lock, but
// the wait ends. The default tier reports only the waits that need not
// end:
//
//   - a cycle: a function that receives from the channel (on the field,
//     global or element it is loaded from, or the channel made here that
//     reaches it) takes a held lock on some path, itself or through the
//     functions it calls statically, in this package by their bodies and in
//     others by an Acquires fact; through another package's interface, by
//     the facts of the implementations declared beside it; and through a
//     callback: a function of another package that calls an interface of
//     its module, which a type of this package implements, takes what that
//     implementation takes (a peer switch that calls every reactor's
//     RemovePeer). Or it takes another lock that a function of the package
//     holds while it takes the held one. Once the buffer is full, the
//     receiver waits for the lock and the sender for the receiver.
//     Related points at the receive and at the receiver's Lock (or the
//     call that reaches it, with the chain of calls). Locks are compared
//     by class: the same field of the same named type, or the same
//     package-level variable, so a receiver that locks another instance's
//     field counts too; a receiver that is running at the send (the
//     sender's own goroutine, or one the sender starts only afterwards)
//     closes no cycle, nor does one that takes the lock only before its
//     receive (to register its channel), or, when it receives in a case
//     of a select, only in another case's body that does not lead back
//     to the select (NewSession reads the connection's error, under the
//     lock the mux holds for its life, only once the connection is done),
//     or whose one receive takes from a
//     channel its call made for itself (a waiter's one-slot channel, put in
//     a list and received from once: what it locks afterwards cannot hold
//     up a send that nobody but this receive waits for), or that fires a
//     case the blocked select also waits on before it takes the lock: it
//     closes that channel first (a reader's shutdown closes exitCh, then
//     locks writeMu), or it takes the lock only once the context stored
//     in the struct whose channel it reads is done, the context the
//     sender's select waits on ([audit: its receiver takes the lock only
//     once a case this select waits on can fire]); a project's own
//     mutex type that is nothing but an embedded sync.Mutex is classed by
//     the field that holds it. Two holds
//     conflict unless both are for reading. A cycle through a buffer of at
//     least 65536 values (every channel instance made with such a capacity:
//     a constant, or a package variable that only its initializer and
//     tests set) is audited instead: it closes only if the senders run
//     that far ahead of the receiver, and the author sized the buffer so
//     that they never do (database/sql's opener queue holds a million);
//   - a cycle through the caller: the channel goes only to the caller of
//     an exported function that returns it (made there, or in an
//     unexported helper whose result it returns), and an exported function
//     or method of the package takes a held lock in a conflicting mode. A
//     caller that calls it while it reads, as a loop over a pinner's pins
//     unpins some of them, waits for the lock while the send waits for
//     that caller's next receive. Related points at the return and at the
//     exported function's Lock (or the call that reaches it). A buffer of
//     65536 values or more is audited here too;
//   - a send that can block forever by baresend's proof (its receiver can
//     stop receiving, its owner can return without receiving): the lock is
//     then never released. Related carries the proof. Each path to the
//     send is judged with what its call site knows: a test of a shutdown
//     flag or state made under the held lock before the call, or in the
//     function that sends, while everything that stops the receiver runs
//     only after a write of that flag under a lock of that class (a Close
//     that closes the chunk map, setting closed under its lock, before it
//     sends the close request), leaves the receiver running at the send:
//     backpressure, the audit tier. The path that lacks the test keeps
//     the finding in the default tier. A send made directly under a lock
//     that the package takes nowhere but in the sending function (a
//     verify round's vote lock around its one send) is audited too: the
//     lock holds up only that function's other callers, on their way to
//     the same send, and baresend reports the send itself: [audit: mu is
//     taken only in F, around this send: ...];
//   - a stream send, directly or through a chain, and a call configured as
//     blocking: the peer's flow control bounds the wait, and a peer that
//     stops reading holds the lock for as long as it likes. One shape is
//     audited instead: a client stream's write mutex. When the stream is
//     the client side of a call (it has CloseSend, CloseRequest or
//     CloseAndReceive) and every critical section of the lock's class in
//     the package calls a method of that stream, itself or through a
//     function of the package it calls (a discovery client whose Fetch
//     holds the lock across Recv and whose Ack sends through a helper),
//     everyone who waits for the lock is on the way to the same call to
//     the same server, whose flow control it meets with or without the
//     lock; a section that never touches the stream (a Pending that reads
//     the queue length) makes its caller wait for a server it did not
//     come for, and keeps the finding in the default tier: [audit: mu is
//     held only to use the client stream s: ...]. A server stream stays
//     in the default tier whatever its lock guards: a hub's callers that
//     serve other clients wait on the one that stopped reading.
//
// Every other finding is in the audit tier, reported only with
// -lockedsend.audit or the command's -audit and labelled with what it
// lacks: [audit: no receiver of it is seen to need the lock], [audit: no
// receiver of it is visible in this package], [audit: the channel and its
// receivers are in another package], [audit: its buffer holds N values:
// the cycle closes only if the senders run that far ahead of the
// receiver].
//
// # One root, one finding
//
// The findings of a package are grouped by the locks held (by class, or,
// for a lock with no class, by function) and the blocking operation (its
// position, or for one in another package the dependency's fact). Each
// group is one finding, reported at its first path by position (file
// name, then offset), which a new caller added later in the file does not
// move; up to three other paths follow in Related ("also reached here"),
// the last counting any more. The analysis is per package: a package that
// calls another's blocking function under its own lock has a finding of
// its own, and the other package's finding, under its lock, is its own.
//
// Locks are taken by Lock and RLock on sync.Mutex and sync.RWMutex, by an
// embedded mutex (s.Lock()), by a sync.Locker value, and on the true
// branch of TryLock; Unlock and RUnlock release them. A deferred Unlock
// holds the lock to the end of the function. Related points at the Lock
// call. Under a read lock alone, the message says that a writer waits,
// and every reader after it: readers do not wait for one another, but
// sync.RWMutex lets no new reader in ahead of a waiting writer. Except
// for a cycle, which names the receiver's take, Related also points at
// the goroutines that wait: the takes of the held lock's class, in the
// package's other functions, in a mode that waits for this holder (for a
// read lock, the writers), at most three, the last counting the rest. A
// constructor's take of the lock of an object it just made is left out,
// as are the functions that reach the same operation (the other paths)
// and, for a finding outside test code, test files.
//
// Not reported at all, because it cannot block or is not known to:
//
//   - a select with default, and a send after every path has unlocked (a
//     lock counts only if it is held on every path to the send);
//   - a send on a channel made in the package whose buffer has room for
//     every send (the capacity rule baresend uses); a send on a channel
//     that is sent on once and then closed, made with room for one; a
//     send into the buffer of a struct the function just made, before
//     anyone else can see it;
//   - a send that puts back a token the function took from the same
//     channel, or into a semaphore filled with tokens where it was made;
//     a send right after a non-blocking receive from the same channel,
//     which made room for it (the keep-the-latest-value idiom);
//   - a call that passes nil for the channel its callee sends on;
//   - a call whose chain ends in a channel send inside another module (a
//     library's queue to its own goroutines, which its caller cannot act
//     on; the library's own check reports it); stream sends through
//     another module are reported;
//   - sends in a goroutine started under the lock, which starts with no
//     locks held, and in a helper after it unlocks its caller's mutex;
//   - calls through interfaces and func values that hold no stream send,
//     whose callee is unknown (logging, such as slog under a lock, is
//     never a send); the standard library, except sync.Once.Do and
//     sync.Map.Range running a function that sends. A func variable
//     assigned once, from a function literal, and only ever called
//     (send := func(...) {...}, shared with a callback) is that literal.
//
// Test code (_test.go files and test-helper packages) is analysed but not
// reported unless -test or -lockedsend.tests is set: a test holds a lock
// while it signals a channel to order goroutines on purpose, and a test
// that stalls fails on its timeout. Locks taken in a helper (func (s *S) lock()) are
// not tracked, nor is blocking I/O other than stream sends unless
// configured.
//
// Configuration: -lockedsend.blocking=pkg/path.Func,pkg/path.Type.Method
// adds functions and methods that block like a send (a client's Publish, a
// net.Conn's Write); -lockedsend.streams=pkg/path.Type adds stream types
// whose Send, SendMsg and SendAndClose block. The defaults cover grpc and
// connect.
//
// Suppress a finding that is deliberate with a reason:
//
//	s.events <- e //sendlint:ignore lockedsend events is drained by the loop that owns s.mu
package lockedsend
