package carriers

import (
	"connectrpc.com/connect"
	"google.golang.org/grpc"
)

type Msg struct{}

func localMethodValue(stream grpc.ServerStreamingServer[Msg]) {
	send := stream.Send
	send(&Msg{}) // want `send grpc.ServerStreamingServer.Send: stream.Send, a method value taken at locals.go:11`
}

func capturedByGoroutine(stream grpc.BidiStreamingServer[Msg, Msg], done chan struct{}) {
	send := stream.Send
	go func() {
		defer close(done)
		send(&Msg{}) // want `send grpc.BidiStreamingServer.Send: send, which holds stream.Send taken at locals.go:16`
	}()
}

func assignedInClosure(stream *connect.ServerStream[Msg]) func() {
	var send func(*Msg) error
	bind := func() { send = stream.Send }
	bind()
	return func() {
		send(&Msg{}) // want `send \(\*connect.ServerStream\).Send: send, which holds stream.Send taken at locals.go:25`
	}
}

func maybeStream(stream *connect.ServerStream[Msg], toStream bool) error {
	send := func(*Msg) error { return nil }
	if toStream {
		send = stream.Send
	}
	return send(&Msg{}) // want `send \(\*connect.ServerStream\).Send: send, which holds stream.Send taken at locals.go:35`
}

func otherFunc() error {
	send := func(*Msg) error { return nil }
	return send(&Msg{}) // ok: never a stream send
}

func methodExpressionValue(stream *connect.ServerStream[Msg]) {
	f := (*connect.ServerStream[Msg]).Send
	f(stream, &Msg{}) // want `send \(\*connect.ServerStream\).Send: \(\*connect.ServerStream\).Send$`
}

type sendFunc func(*Msg) error

func namedFuncType(stream grpc.ServerStreamingServer[Msg]) {
	var f sendFunc = stream.Send
	f(&Msg{}) // want `send grpc.ServerStreamingServer.Send: stream.Send, a method value taken at locals.go:53`
}

func embeddedSendMsgValue(stream grpc.ServerStreamingServer[Msg]) {
	f := stream.SendMsg
	f(&Msg{}) // want `send grpc.ServerStream.SendMsg: stream.SendMsg, a method value taken at locals.go:58`
}

func recvValue(stream grpc.BidiStreamingServer[Msg, Msg]) {
	recv := stream.Recv
	recv() // ok: a receive
	closeSend := grpc.ClientStream.CloseSend
	closeSend(nil) // ok: closes, sends no message
}
