package protos

import (
	"context"

	"google.golang.org/grpc"
)

// AtomicBroadcastServer is the client-facing Broadcast service.
type AtomicBroadcastServer interface {
	Broadcast(AtomicBroadcast_BroadcastServer) error
}

// AtomicBroadcast_BroadcastServer is the router's side of one Broadcast
// stream: envelopes in, one BroadcastResponse per envelope out.
type AtomicBroadcast_BroadcastServer interface {
	Send(*BroadcastResponse) error
	Recv() (*Envelope, error)
	grpc.ServerStream
}

// RequestTransmitServer is the client-facing request service: a stream of
// requests, or one request at a time.
type RequestTransmitServer interface {
	Submit(context.Context, *Request) (*SubmitResponse, error)
	SubmitStream(RequestTransmit_SubmitStreamServer) error
}

// RequestTransmit_SubmitStreamServer is the router's side of one SubmitStream.
type RequestTransmit_SubmitStreamServer interface {
	Send(*SubmitResponse) error
	Recv() (*Request, error)
	grpc.ServerStream
}

// RequestTransmitClient is the batcher's request service as the router calls
// it: the router keeps a few long-lived SubmitStreams per batcher.
type RequestTransmitClient interface {
	Submit(ctx context.Context, in *Request, opts ...grpc.CallOption) (*SubmitResponse, error)
	SubmitStream(ctx context.Context, opts ...grpc.CallOption) (RequestTransmit_SubmitStreamClient, error)
}

// RequestTransmit_SubmitStreamClient is the router's side of a SubmitStream to
// a batcher.
type RequestTransmit_SubmitStreamClient interface {
	Send(*Request) error
	Recv() (*SubmitResponse, error)
	grpc.ClientStream
}

// ConsensusClient is the consenters' config service.
type ConsensusClient interface {
	SubmitConfig(ctx context.Context, in *Request, opts ...grpc.CallOption) (*SubmitResponse, error)
}
