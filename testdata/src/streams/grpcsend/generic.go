// Package grpcsend holds grpc stream calls, each send beside a call that is
// not one.
package grpcsend

import "google.golang.org/grpc"

type Feature struct{}

type Point struct{}

type Summary struct{}

// New protoc-gen-go-grpc names the generic interfaces through aliases.
type RouteGuide_ListFeaturesServer = grpc.ServerStreamingServer[Feature]

type RouteGuide_RecordRouteClient = grpc.ClientStreamingClient[Point, Summary]

func serverStreamingSend(stream RouteGuide_ListFeaturesServer) {
	stream.Send(&Feature{})    // want `send grpc.ServerStreamingServer.Send: stream.Send`
	stream.SendMsg(&Feature{}) // want `send grpc.ServerStream.SendMsg: stream.SendMsg`
	stream.RecvMsg(&Point{})   // ok: a receive
	stream.SendHeader(nil)     // ok: headers are not messages
}

func bidiServerSend(stream grpc.BidiStreamingServer[Point, Feature]) {
	if _, err := stream.Recv(); err != nil { // ok: a receive
		return
	}
	stream.Send(&Feature{}) // want `send grpc.BidiStreamingServer.Send: stream.Send`
}

func clientStreamingServerSendAndClose(stream grpc.ClientStreamingServer[Point, Summary]) {
	stream.Recv()                   // ok: a receive
	stream.SendAndClose(&Summary{}) // want `send grpc.ClientStreamingServer.SendAndClose: stream.SendAndClose`
}

func clientStreamingClientSend(stream RouteGuide_RecordRouteClient) {
	stream.Send(&Point{}) // want `send grpc.ClientStreamingClient.Send: stream.Send`
	stream.CloseSend()    // ok: closes, sends no message
	stream.CloseAndRecv() // ok: a receive
}

func bidiClientSend(stream grpc.BidiStreamingClient[Point, Feature]) {
	stream.Send(&Point{}) // want `send grpc.BidiStreamingClient.Send: stream.Send`
	stream.Recv()         // ok: a receive
}

func serverStreamingClientRecv(stream grpc.ServerStreamingClient[Feature]) {
	stream.Recv()       // ok: a receive
	stream.SendMsg(nil) // want `send grpc.ClientStream.SendMsg: stream.SendMsg`
	stream.Header()     // ok
}

func plainStreams(ss grpc.ServerStream, cs grpc.ClientStream, s grpc.Stream) {
	ss.SendMsg(nil) // want `send grpc.ServerStream.SendMsg: ss.SendMsg`
	cs.SendMsg(nil) // want `send grpc.ClientStream.SendMsg: cs.SendMsg`
	s.SendMsg(nil)  // want `send grpc.Stream.SendMsg: s.SendMsg`
	ss.RecvMsg(nil) // ok: a receive
}

func concreteGeneric(ss *grpc.GenericServerStream[Point, Feature], cs *grpc.GenericClientStream[Point, Feature]) {
	ss.Send(&Feature{})         // want `send \(\*grpc.GenericServerStream\).Send: ss.Send`
	ss.SendAndClose(&Feature{}) // want `send \(\*grpc.GenericServerStream\).SendAndClose: ss.SendAndClose`
	ss.Recv()                   // ok: a receive
	ss.SendMsg(nil)             // want `send grpc.ServerStream.SendMsg: ss.ServerStream.SendMsg`
	cs.Send(&Point{})           // want `send \(\*grpc.GenericClientStream\).Send: cs.Send`
	cs.CloseAndRecv()           // ok: a receive
}

// sendInGeneric calls Send on a stream whose message is a type parameter.
func sendInGeneric[T any](stream grpc.ServerStreamingServer[T], m *T) error {
	return stream.Send(m) // want `send grpc.ServerStreamingServer.Send: stream.Send`
}

func useSendInGeneric(stream RouteGuide_ListFeaturesServer) {
	sendInGeneric(stream, &Feature{}) // ok: the send is reported inside
}

// constrainedSend's receiver is a type parameter constrained by a stream.
func constrainedSend[S grpc.ServerStreamingServer[Feature]](s S) {
	s.Send(&Feature{}) // want `send grpc.ServerStreamingServer.Send: s.Send`
}
