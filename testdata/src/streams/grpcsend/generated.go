package grpcsend

import "google.golang.org/grpc"

// Old protoc-gen-go-grpc declares each stream interface with its own Send
// and an embedded grpc stream, and implements it with a struct that embeds
// the same stream.
type RouteGuide_RouteChatServer interface {
	Send(*Feature) error
	Recv() (*Point, error)
	grpc.ServerStream
}

type routeGuideRouteChatServer struct {
	grpc.ServerStream
}

func (x *routeGuideRouteChatServer) Send(m *Feature) error {
	return x.ServerStream.SendMsg(m) // want `send grpc.ServerStream.SendMsg: x.ServerStream.SendMsg`
}

func (x *routeGuideRouteChatServer) Recv() (*Point, error) {
	m := new(Point)
	if err := x.ServerStream.RecvMsg(m); err != nil { // ok: a receive
		return nil, err
	}
	return m, nil
}

type RouteGuide_RouteChatClient interface {
	Send(*Point) error
	Recv() (*Feature, error)
	grpc.ClientStream
}

// A service interface may embed the generated one.
type chatStream interface {
	RouteGuide_RouteChatServer
	Peer() string
}

func generatedInterfaceSend(stream RouteGuide_RouteChatServer, client RouteGuide_RouteChatClient, wrapped chatStream) {
	stream.Send(&Feature{})  // want `send grpcsend.RouteGuide_RouteChatServer.Send: stream.Send`
	stream.Recv()            // ok: a receive
	stream.SendMsg(nil)      // want `send grpc.ServerStream.SendMsg: stream.SendMsg`
	client.Send(&Point{})    // want `send grpcsend.RouteGuide_RouteChatClient.Send: client.Send`
	client.CloseSend()       // ok: closes, sends no message
	wrapped.Send(&Feature{}) // want `send grpcsend.RouteGuide_RouteChatServer.Send: wrapped.Send`
	wrapped.Peer()           // ok
}

func generatedStructSend(x *routeGuideRouteChatServer) {
	x.Send(&Feature{}) // want `send \(\*grpcsend.routeGuideRouteChatServer\).Send: x.Send`
	x.Recv()           // ok: a receive
}

// loggingStream wraps a stream the way interceptors do.
type loggingStream struct {
	grpc.ServerStream
	sent int
}

func (l *loggingStream) SendMsg(m any) error {
	l.sent++
	return l.ServerStream.SendMsg(m) // want `send grpc.ServerStream.SendMsg: l.ServerStream.SendMsg`
}

func wrappedStreamSend(l *loggingStream) {
	l.SendMsg(nil) // want `send \(\*grpcsend.loggingStream\).SendMsg: l.SendMsg`
}
