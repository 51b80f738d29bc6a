// Package singlesender defines an Analyzer that reports gRPC and connect
// stream sends made by a goroutine other than the stream's one sender.
//
// # Analyzer singlesender
//
// singlesender: report stream sends made from more than one goroutine
//
// grpc's SendMsg (and the generated Send) and connect's Send must not be
// called from two goroutines at once. A second sender on a stream is either
// a data race or a mutex around Send, and the mutex turns one peer that
// stops reading (Send waits on HTTP/2 flow control) into a stall for every
// goroutine that wants to send to it. The fix is one sender goroutine per
// stream, fed by a bounded queue, which is the only code that calls Send.
//
// The stream's designated sender is, in this order: a function marked
// //sendlint:sender; the goroutine started with the stream (a function
// started by go that receives the stream, or its Send, as an argument or a
// closure capture, or a closure handed to a function that starts it, such
// as time.AfterFunc, (*sync.WaitGroup).Go or errgroup's Go); the stream's
// owner itself (the handler that received it, the function that opened it)
// when no goroutine is started with it. A handler that starts no goroutine
// for its stream is its only sender, and that is fine.
//
// WRONG: the handler's feedback goroutine is the stream's sender, and the
// handler answers the stop itself.
//
//	func (s *Server) Broadcast(stream pb.AB_BroadcastServer) error {
//		replies := make(chan *pb.Reply, 16)
//		go s.feedback(stream, replies)
//		for {
//			req, err := stream.Recv()
//			...
//			select {
//			case <-s.stopChan:
//				return stream.Send(stopped(req)) // reported
//			default:
//			}
//			replies <- s.handle(req)
//		}
//	}
//
// RIGHT: every reply goes through the sender.
//
//	case <-s.stopChan:
//		replies <- stopped(req)
//		return errStopped
//
// WRONG: attach keeps the stream's Send in the router, and every caller
// sends on the caller's goroutine, serialized by a mutex.
//
//	func (r *router) attach(send func(*pb.Frame) error) { r.send = send }
//	func (r *router) push(f *pb.Frame) error {
//		r.sendMu.Lock()
//		defer r.sendMu.Unlock()
//		return r.send(f) // reported: push is reached from exported methods
//	}
//
// RIGHT: attach hands Send to one sender goroutine and keeps only its queue;
// push enqueues without blocking and reports a full queue.
//
//	func (r *router) attach(send func(*pb.Frame) error) {
//		q := make(chan *pb.Frame, 256)
//		r.queue = q
//		go func() {
//			for f := range q {
//				if send(f) != nil {
//					return
//				}
//			}
//		}()
//	}
//
// The pass reports, at the call that breaks single ownership:
//
//   - a send on the owner's goroutine, or on another started goroutine,
//     while the designated sender may be running: a handler that starts a
//     sender and also sends on a shutdown or error path, two goroutines that
//     each send, a goroutine started per message in a loop. When two
//     goroutines started by one function both send, and neither is marked
//     //sendlint:sender, the sends of both are reported: nothing but the
//     order of the go statements made the first one the sender;
//   - a send through a stream, or its Send, stored in a struct field, a
//     map, slice or channel held in one, or a package-level variable, from
//     a function that any goroutine may call: an exported function or
//     method, a function used as a value, a function with no caller in the
//     package. This is the runner hub's r.send, called by send1, push and
//     dispatch from every client RPC;
//   - a call that hands a stream, or its Send, to a dependency's function
//     that stores it where any goroutine may send on it.
//
// A call that reaches the send through a helper is reported at the call in
// the goroutine's own function; Diagnostic.Related points at the designated
// sender, the send itself, and where the stream was stored.
//
// Which goroutines run a send is found by following the stream forward
// from where it enters the package, and, for a stored stream, by walking
// the package's call graph (golang.org/x/tools/go/callgraph, over the
// package's SSA) back from each function that loads it. Calls into other
// packages are followed through facts that say whether a function sends
// on (or calls) an argument on the caller's goroutine, from a goroutine it
// starts, or after storing it. The policy for calls with no static callee:
//
//   - an interface method call reaches the methods of the package's own
//     types that implement the interface, and nothing else;
//   - a call through a func value reaches nothing, and a stream passed to
//     one is not followed; a function used as a value (other than one
//     handed to a known caller) is an entry point that any goroutine may
//     call;
//   - a closure handed to a function that is not known to start or store
//     it runs on the caller's goroutine. This errs toward silence: it can
//     only merge two senders into one.
//
// Not reported: sends made before the sender goroutine starts, or on a
// branch that never starts it; goroutines started on exclusive branches;
// Recv, SendHeader and CloseSend on any goroutine (grpc and connect allow
// one sender and one receiver at once); a stream kept in a struct made by
// its owner, which follows the struct wherever the owner hands it (the
// router's per-stream sendRequests goroutine); a wrapper that embeds a
// stream and forwards SendMsg, and the exported methods of a type that
// holds a stream, whose caller decides the goroutine; streams the package
// receives through calls it cannot see into. A send made after the sender
// goroutine has been joined is reported: the pass does not see the join.
//
// Test code (_test.go files and test-helper packages) is analysed but not
// reported unless -test or -singlesender.tests is set.
//
// Mark the sender when the pass cannot see it start (a worker pool, a
// framework callback):
//
//	//sendlint:sender
//	func (c *conn) writeLoop() { ... }
//
// Suppress a finding that is deliberate with a reason:
//
//	stream.Send(bye) //sendlint:ignore singlesender the sender has exited: wg.Wait above
package singlesender
