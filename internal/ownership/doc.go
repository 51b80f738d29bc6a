// Package ownership finds, for every gRPC or connect stream a package
// handles, the goroutines that send on it. singlesender judges the answer;
// this package only computes it, and exports what other packages need as
// facts.
//
// # Streams and their owners
//
// A stream enters a package in one of two ways, and the function where it
// enters is its owner:
//
//   - as a parameter of a function that code outside the package may call:
//     an exported function or method (a service handler), a function used
//     as a value, or one with no caller in the package;
//   - as the result of a call that opens it (client.Chat(ctx)).
//
// From there a forward walk over the SSA follows the stream, and the
// stream's Send taken as a method value, through the owner and everything
// it hands them to: locals and φ-nodes, interface conversions, arguments of
// static calls, closures that capture them, local variables, and the
// arguments of a `go` statement. A call that sends (stream.Send(m), a func
// value holding stream.Send, or a function of a dependency whose fact says
// it sends on that argument) is a send site, labelled with the goroutine
// that runs it:
//
//	Owner     the owner's own goroutine, and the functions it calls
//	Started   a goroutine started with the stream: `go f(stream)`,
//	          `go func() { stream.Send(m) }()`, a closure handed to a
//	          function that starts it (time.AfterFunc, errgroup's Go, or a
//	          function whose fact says so)
//	Callback  a closure that captures the stream and is stored or returned,
//	          to be called later by code the package cannot see
//	Marked    a function marked //sendlint:sender, which counts as one
//	          goroutine, however it is called
//
// For each label the walk remembers the instruction in the owner's function
// that leads to it, so that a send made before the sender goroutine is
// started, or in a branch that excludes it, can be told apart from one made
// while that goroutine runs.
//
// # Stored streams
//
// A stream, or its Send, stored in a struct field, a package-level
// variable, or an element of a map, slice or channel, can be loaded by any
// function of the package. Every load of such a place is walked like an
// owner, and which goroutines run the function that loads it is read off the
// package's call graph (golang.org/x/tools/go/callgraph, built over the
// package's SSA): walking callers backwards, a path ends
//
//   - at the stream's owner, which makes the send the owner's (Owner),
//     unless the place is an element of a collection: then the element
//     may be another invocation's stream, and the owner counts as one more
//     entry point;
//   - at a `go` statement, or a closure handed to a function that starts it
//     (Started);
//   - at an entry point: an exported function or method, a function used as
//     a value, a function with no callers (Entry, which many goroutines may
//     run at once), or init and main (Entry, one goroutine). The exported
//     methods of the struct type that declares the field are not entry
//     points: they are that type's API, and whoever holds the value decides
//     which goroutine calls them;
//   - at a function marked //sendlint:sender (Marked).
//
// # Calls the analysis cannot see through
//
// Interface method calls are resolved to the methods of the package's own
// types that implement the interface (class hierarchy analysis, limited to
// the package); a stream handed to one is not followed. A call through a
// func value has no known callee: a stream passed to it is not followed, and
// a function whose address is taken is an entry point. A closure handed to a
// function is presumed to run on the caller's goroutine, unless that
// function is known to start it (a fact, or the table of standard library
// functions in closures.go) or to store it (Callback). Presuming the caller's
// goroutine errs toward silence: it can only merge two senders into one.
//
// # Facts
//
// For each exported function and method, ParamUse says which of its stream
// and func parameters it sends on (or calls) on the caller's goroutine,
// from a goroutine it starts, or after storing them where other goroutines
// reach them. A dependent package reads them for calls into the dependency.
// Packages in GOROOT export no facts and are not analysed: the standard
// library handles no gRPC or connect stream, and what it does with closures
// is in the table.
package ownership
