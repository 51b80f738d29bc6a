// Package madeelsewhere watches close requests of a type switchkit
// declares and fills. The bump request it makes itself is one of the
// channels a request's Updates may hold, not the one: the related
// position at its make says so.
package madeelsewhere

import (
	"context"

	"baresend/switchkit"
)

func bumpClose(ctx context.Context) *switchkit.CloseRequest {
	return &switchkit.CloseRequest{Ctx: ctx, Updates: make(chan any, 1), Err: make(chan error, 1)}
}

// observeClose forwards a close's updates while the requester waits, and
// then the final one with a bare send.
func observeClose(req *switchkit.CloseRequest, updates <-chan any, final any) {
	for u := range updates {
		select {
		case req.Updates <- u:
		case <-req.Ctx.Done():
			return
		}
	}
	req.Updates <- final // want `send on req\.Updates \(chan any\) can block forever: the package's other send on it gives up when Ctx is done`
}
