// Package server calls the real grpc stream API, through the generated
// types of package pb. Each line that sends carries a want comment.
package server

import (
	"context"
	"sync"

	"google.golang.org/grpc"

	"example.com/realmod/pb"
)

type routeGuideServer struct {
	mu    sync.Mutex
	notes []*pb.RouteNote
}

func (s *routeGuideServer) ListFeatures(rect *pb.Point, stream pb.RouteGuide_ListFeaturesServer) error {
	stream.SendHeader(nil) // not a message
	s.mu.Lock()
	defer s.mu.Unlock()
	return stream.Send(&pb.Feature{}) // want `send grpc.ServerStreamingServer.Send: stream.Send`
}

func (s *routeGuideServer) RecordRoute(stream pb.RouteGuide_RecordRouteServer) error {
	for {
		if _, err := stream.Recv(); err != nil {
			return stream.SendAndClose(&pb.RouteSummary{}) // want `send grpc.ClientStreamingServer.SendAndClose: stream.SendAndClose`
		}
	}
}

func (s *routeGuideServer) RouteChat(stream pb.RouteGuide_RouteChatServer) error {
	for {
		in, err := stream.Recv()
		if err != nil {
			return err
		}
		if err := stream.Send(in); err != nil { // want `send pb.RouteGuide_RouteChatServer.Send: stream.Send`
			return err
		}
		stream.SendMsg(in) // want `send grpc.ServerStream.SendMsg: stream.SendMsg`
	}
}

func rawStreams(ss grpc.ServerStream, cs grpc.ClientStream) {
	ss.SendMsg(nil) // want `send grpc.ServerStream.SendMsg: ss.SendMsg`
	ss.RecvMsg(nil)
	cs.SendMsg(nil) // want `send grpc.ClientStream.SendMsg: cs.SendMsg`
	cs.CloseSend()
}

func wrapped(ss grpc.ServerStream) error {
	chat := pb.NewRouteChatServer(ss)
	return chat.Send(&pb.RouteNote{}) // want `send pb.RouteGuide_RouteChatServer.Send: pb.RouteGuide_RouteChatServer.Send$`
}

func generic(ss *grpc.GenericServerStream[pb.Point, pb.Feature]) {
	ss.Send(&pb.Feature{}) // want `send \(\*grpc.GenericServerStream\).Send: ss.Send`
	ss.Recv()
}

func client(ctx context.Context, c pb.RouteGuideClient) error {
	up, err := c.RecordRoute(ctx)
	if err != nil {
		return err
	}
	up.Send(&pb.Point{}) // want `send grpc.ClientStreamingClient.Send: grpc.ClientStreamingClient.Send$`
	up.CloseAndRecv()
	chat, err := c.RouteChat(ctx)
	if err != nil {
		return err
	}
	send := chat.Send
	var wg sync.WaitGroup
	wg.Go(func() {
		send(&pb.RouteNote{}) // want `send grpc.BidiStreamingClient.Send: send, which holds grpc.BidiStreamingClient.Send taken at server.go:75`
	})
	chat.Recv()
	wg.Wait()
	return nil
}
