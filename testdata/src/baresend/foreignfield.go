package baresend

import (
	"context"

	"baresend/switchkit"
)

// A peer serves close requests of a type another package declares, and
// fills, with channels of its own. The bump request it makes here has one
// slot; requests from the switch have two. The message does not print the
// slots this package makes as the channel's capacity: other packages make
// it too.

func bumpClose(ctx context.Context) *switchkit.CloseRequest {
	return &switchkit.CloseRequest{Ctx: ctx, Updates: make(chan any, 1), Err: make(chan error, 1)}
}

func observeClose(req *switchkit.CloseRequest, updates <-chan any) {
	for u := range updates {
		select {
		case req.Updates <- u:
		case <-req.Ctx.Done():
			return
		}
	}
}

func finishClose(req *switchkit.CloseRequest, final any) {
	req.Updates <- final // want `send on req\.Updates \(chan any\) can block forever: the package's other send on it gives up when Ctx is done`
}
