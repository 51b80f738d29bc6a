// Package switchkit declares a close request that several packages fill:
// the switch makes its channels with room for every update of a
// cooperative close, and other packages make their own.
package switchkit

import "context"

type CloseRequest struct {
	Ctx     context.Context
	Updates chan any
	Err     chan error
}

// NewCloseRequest makes a request with room for the two updates of a
// cooperative close and its one error.
func NewCloseRequest(ctx context.Context) *CloseRequest {
	return &CloseRequest{Ctx: ctx, Updates: make(chan any, 2), Err: make(chan error, 1)}
}
