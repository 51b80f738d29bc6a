package runnerhubregress

import (
	"context"

	"runnerhub/compassv1internal"
)

// ControlOp is one notification for a session, as the delivery consumer
// decided to deliver it.
type ControlOp struct {
	DeliverID string
	Seq       uint64
	Payload   []byte
}

// DispatchControl delivers op to the Runner hosting sessionID. It only
// sends: the delivery cursor moves later, on the session's ack, never here.
// An error is a refusal made on the spot (no Runner for the session, no live
// stream, or a full send queue) and leaves the message to the consumer's
// sweep. ctx is not consulted: the enqueue never waits.
func (h *Hub) DispatchControl(ctx context.Context, sessionID string, op ControlOp) error {
	router, err := h.routerForSession(sessionID)
	if err != nil {
		return err
	}
	cmd := &compassv1internal.SessionsResponse{
		RequestId: op.DeliverID,
		Deliver:   &compassv1internal.Deliver{SessionId: sessionID, Seq: op.Seq, Payload: op.Payload},
	}
	return router.send1(cmd)
}
