// Package streams answers, for the passes that need it, one question about
// an SSA call: does it send on a gRPC or connect stream, either by naming
// the Send method or through a func value that holds the stream's Send?
//
// # What is a stream send
//
// A Matcher recognises, by object identity and never by name pattern:
//
//   - SendMsg on grpc.ServerStream, grpc.ClientStream and the deprecated
//     grpc.Stream; Send on grpc.ServerStreamingServer, BidiStreamingServer,
//     ClientStreamingClient and BidiStreamingClient; SendAndClose on
//     grpc.ClientStreamingServer; the same methods of the concrete
//     *grpc.GenericServerStream and *grpc.GenericClientStream.
//   - Send on connect's *BidiStream, *ServerStream, *BidiStreamForClient,
//     *ClientStreamForClient, *BidiStreamForClientSimple,
//     *ClientStreamForClientSimple, and on the StreamingHandlerConn and
//     StreamingClientConn that interceptors wrap.
//   - Send, SendMsg or SendAndClose, taking one argument and returning an
//     error, declared on a type that embeds a stream: the generated
//     interfaces of old protoc-gen-go-grpc (`interface{ Send(*Feature)
//     error; grpc.ServerStream }`) and the structs that implement them
//     (`struct{ grpc.ServerStream }`). New-style generated aliases such as
//     `= grpc.ServerStreamingServer[Feature]` are the grpc types themselves.
//
// SendAndClose is a send: it writes the last message and waits on flow
// control like Send. Recv, RecvMsg, CloseSend, SendHeader and connect's
// CloseRequest are not. A user type with a Send method that embeds no
// stream is not a stream, even if a stream is what it wraps; a test fake
// that embeds grpc.ServerStream only to satisfy the interface is one, like
// the generated struct it imitates.
//
// Generic instances, pointer receivers, interface (invoke) calls, static
// calls, methods promoted through embedding, and $thunk calls of method
// expressions all resolve to the same method object.
//
// # Configuration
//
// NewMatcher takes two lists, meant for flags such as
// -streams=pkg/path.Type,... and -lockedsend.blocking=pkg/path.Type.Method,...:
//
//	pkg/path.Type         Type is a stream: its Send, SendMsg and SendAndClose
//	                      are sends, and so are those of types embedding it
//	pkg/path.Type.Method  Method of Type blocks like a send (that method only)
//
// Type and Method are identifiers and are read from the right, so
// gopkg.in/yaml.v3.Node.Encode is method Encode of type Node in package
// gopkg.in/yaml.v3. Pointer and value receivers are both matched, and so
// are interfaces and structs that embed Type, whose methods are Type's own;
// other types that merely implement an interface Type are not. A malformed
// entry makes NewMatcher fail with a one-line error. The syntax cannot tell
// a method entry given to -streams from a type in a package whose last path
// element has a dot: such an entry is accepted and matches nothing.
//
// # Func values that hold a Send
//
// A method value is a closure over a bound wrapper, and a method expression
// a thunk:
//
//	send := stream.Send   t1 = make closure (*connect.BidiStream[M, M]).Send$bound [stream]
//	send := s.Send        t1 = typeassert s.(pb.X_Server)   // nil check
//	                      t2 = make closure (pb.X_Server).Send$bound [s]
//	f := (*T).Send        (*T).Send$thunk used as a value
//
// Matcher.Flow follows such values through one package: locals, captured
// variables, struct fields (all values of a struct type share a field),
// package-level variables, parameters of statically called functions (a
// parameter holds a send if any call site passes one) and results. For the
// runner hub
//
//	func (r *commandRouter) attach(send func(*SessionsResponse) error) { r.send = send }
//	router.attach(stream.Send)                     // handler.go:107
//	err := r.send(cmd)                             // under r.sendMu
//
// Flow.Send reports the last call as "r.send, which holds stream.Send taken
// at handler.go:107", with Origin.Pos at the selector for Diagnostic.Related.
//
// Values converted to interfaces or kept in maps, slices and channels are
// not followed, nor are arguments of calls through interfaces or func
// values: the flow stays silent there rather than guess.
//
// # Across packages
//
// Flow.Carriers lists the fields, package-level variables, parameters and
// results of the package that may hold a send. An analyzer that owns facts
// exports them on the field *types.Var or the *types.Func, and in a
// dependent package passes the imported ones back to Matcher.Flow as seeds.
// Imported origins have no position; their Expr says what was taken.
package streams
