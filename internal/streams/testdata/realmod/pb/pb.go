// Package pb is written the way protoc-gen-go-grpc writes stream code, in
// both its old form (an interface with its own Send that embeds
// grpc.ServerStream, and a struct implementing it) and its new form
// (aliases of grpc's generic stream interfaces). The tests load it from
// export data, as a dependency.
package pb

import (
	"context"

	"google.golang.org/grpc"
)

type Point struct{ Lat, Lng int32 }

type Feature struct{ Name string }

type RouteNote struct{ Message string }

type RouteSummary struct{ PointCount int32 }

// New style.
type RouteGuide_ListFeaturesServer = grpc.ServerStreamingServer[Feature]

type RouteGuide_RecordRouteServer = grpc.ClientStreamingServer[Point, RouteSummary]

type RouteGuide_RecordRouteClient = grpc.ClientStreamingClient[Point, RouteSummary]

type RouteGuide_RouteChatClient = grpc.BidiStreamingClient[RouteNote, RouteNote]

// Old style.
type RouteGuide_RouteChatServer interface {
	Send(*RouteNote) error
	Recv() (*RouteNote, error)
	grpc.ServerStream
}

type routeGuideRouteChatServer struct {
	grpc.ServerStream
}

func (x *routeGuideRouteChatServer) Send(m *RouteNote) error {
	return x.ServerStream.SendMsg(m) // want `send grpc.ServerStream.SendMsg: x.ServerStream.SendMsg`
}

func (x *routeGuideRouteChatServer) Recv() (*RouteNote, error) {
	m := new(RouteNote)
	if err := x.ServerStream.RecvMsg(m); err != nil {
		return nil, err
	}
	return m, nil
}

// NewRouteChatServer wraps a server stream as the generated handler does.
func NewRouteChatServer(s grpc.ServerStream) RouteGuide_RouteChatServer {
	return &routeGuideRouteChatServer{s}
}

// RouteGuideClient opens the client streams.
type RouteGuideClient interface {
	RecordRoute(ctx context.Context, opts ...grpc.CallOption) (RouteGuide_RecordRouteClient, error)
	RouteChat(ctx context.Context, opts ...grpc.CallOption) (RouteGuide_RouteChatClient, error)
}

type routeGuideClient struct{ cc grpc.ClientConnInterface }

func NewRouteGuideClient(cc grpc.ClientConnInterface) RouteGuideClient { return &routeGuideClient{cc} }

func (c *routeGuideClient) RecordRoute(ctx context.Context, opts ...grpc.CallOption) (RouteGuide_RecordRouteClient, error) {
	stream, err := c.cc.NewStream(ctx, &grpc.StreamDesc{StreamName: "RecordRoute", ClientStreams: true}, "/routeguide.RouteGuide/RecordRoute", opts...)
	if err != nil {
		return nil, err
	}
	return &grpc.GenericClientStream[Point, RouteSummary]{ClientStream: stream}, nil
}

func (c *routeGuideClient) RouteChat(ctx context.Context, opts ...grpc.CallOption) (RouteGuide_RouteChatClient, error) {
	stream, err := c.cc.NewStream(ctx, &grpc.StreamDesc{StreamName: "RouteChat", ServerStreams: true, ClientStreams: true}, "/routeguide.RouteGuide/RouteChat", opts...)
	if err != nil {
		return nil, err
	}
	return &grpc.GenericClientStream[RouteNote, RouteNote]{ClientStream: stream}, nil
}
