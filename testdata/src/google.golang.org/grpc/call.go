package grpc

// CallOption configures a call before it starts or extracts information from
// it after it completes. Generated clients take a variadic list of them.
type CallOption interface {
	before(*callInfo) error
	after(*callInfo, *csAttempt)
}

// callInfo and csAttempt stand in for grpc's per-call state.
type callInfo struct{}

type csAttempt struct{}
