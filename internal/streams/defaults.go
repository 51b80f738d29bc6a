package streams

// defaultSends lists, in the blocking-entry syntax, the methods of grpc
// v1.85.0 and connect v1.21.1 that write a message on a stream. Every type
// named here is a stream: generated types that embed it inherit its sends.
//
// SendAndClose is listed: it writes the final message of a client-streaming
// RPC and blocks on flow control exactly as Send does. SendHeader,
// CloseSend and connect's CloseRequest are not: they write no message and
// never wait for the peer to read one.
func defaultSends() []string {
	return []string{
		// Interfaces. A generated or aliased stream interface reaches these
		// through embedding, which keeps the method objects.
		"google.golang.org/grpc.Stream.SendMsg",
		"google.golang.org/grpc.ServerStream.SendMsg",
		"google.golang.org/grpc.ClientStream.SendMsg",
		"google.golang.org/grpc.ServerStreamingServer.Send",
		"google.golang.org/grpc.BidiStreamingServer.Send",
		"google.golang.org/grpc.ClientStreamingServer.SendAndClose",
		"google.golang.org/grpc.ClientStreamingClient.Send",
		"google.golang.org/grpc.BidiStreamingClient.Send",
		// The concrete adapters behind those interfaces.
		"google.golang.org/grpc.GenericServerStream.Send",
		"google.golang.org/grpc.GenericServerStream.SendAndClose",
		"google.golang.org/grpc.GenericClientStream.Send",

		// connect's handler-side streams.
		"connectrpc.com/connect.BidiStream.Send",
		"connectrpc.com/connect.ServerStream.Send",
		// connect's client-side streams.
		"connectrpc.com/connect.BidiStreamForClient.Send",
		"connectrpc.com/connect.ClientStreamForClient.Send",
		"connectrpc.com/connect.BidiStreamForClientSimple.Send",
		"connectrpc.com/connect.ClientStreamForClientSimple.Send",
		// The conns that interceptors wrap: the same wire, one layer down.
		"connectrpc.com/connect.StreamingHandlerConn.Send",
		"connectrpc.com/connect.StreamingClientConn.Send",
	}
}
