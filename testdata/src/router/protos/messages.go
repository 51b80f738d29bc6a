// Package protos holds the router's wire messages and, in services.go, the
// gRPC service interfaces in the shape protoc-gen-go-grpc generates them. The
// router's fix changes no message, so routerfixed imports this package too.
package protos

// HeaderType says what an envelope carries.
type HeaderType int32

const (
	HeaderType_MESSAGE       HeaderType = 0
	HeaderType_CONFIG_UPDATE HeaderType = 2
)

// Status is the outcome a Broadcast client sees for one envelope.
type Status int32

const (
	Status_SUCCESS               Status = 200
	Status_BAD_REQUEST           Status = 400
	Status_INTERNAL_SERVER_ERROR Status = 500
	Status_SERVICE_UNAVAILABLE   Status = 503
)

// Header identifies the kind and channel of an envelope.
type Header struct {
	Type      HeaderType
	ChannelId string
}

// Envelope is what a Broadcast client submits.
type Envelope struct {
	Header    *Header
	Payload   []byte
	Signature []byte
}

func (x *Envelope) GetHeader() *Header {
	if x != nil {
		return x.Header
	}
	return nil
}

// BroadcastResponse answers one envelope on the Broadcast stream.
type BroadcastResponse struct {
	Status Status
	Info   string
}

// Request is a transaction as the router forwards it to a batcher, and as
// SubmitStream and Submit clients send it.
type Request struct {
	Payload   []byte
	Signature []byte
	TraceId   []byte
}

// SubmitResponse answers one request. ReqID is the router's request ID, which
// the batcher echoes back so the router can find the waiting client.
type SubmitResponse struct {
	ReqID   []byte
	TraceId []byte
	Error   string
}
