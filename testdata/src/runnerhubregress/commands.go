package runnerhubregress

import (
	"context"
	"errors"

	"connectrpc.com/connect"

	"runnerhub/compassv1internal"
)

// StartSession starts a session on a Runner and places it there once the
// Runner reports it started.
func (h *Hub) StartSession(ctx context.Context, req *connect.Request[compassv1internal.StartSessionRequest]) (*connect.Response[compassv1internal.StartSessionResponse], error) {
	msg := req.Msg
	result, err := h.relayCommand(ctx, msg.RunnerId, &compassv1internal.SessionsResponse{
		RequestId: msg.RequestId,
		Command:   &compassv1internal.SessionCommand{SessionId: msg.SessionId, Op: compassv1internal.CommandOp_START},
	})
	if err != nil {
		return nil, err
	}
	h.place(msg.SessionId, msg.RunnerId)
	return connect.NewResponse(&compassv1internal.StartSessionResponse{State: result.State}), nil
}

// StopSession stops a session on the Runner hosting it.
func (h *Hub) StopSession(ctx context.Context, req *connect.Request[compassv1internal.StopSessionRequest]) (*connect.Response[compassv1internal.StopSessionResponse], error) {
	msg := req.Msg
	h.mu.RLock()
	runnerID := h.placement[msg.SessionId]
	h.mu.RUnlock()
	result, err := h.relayCommand(ctx, runnerID, &compassv1internal.SessionsResponse{
		RequestId: msg.RequestId,
		Command:   &compassv1internal.SessionCommand{SessionId: msg.SessionId, Op: compassv1internal.CommandOp_STOP},
	})
	if err != nil {
		return nil, err
	}
	h.unplace(msg.SessionId)
	return connect.NewResponse(&compassv1internal.StopSessionResponse{State: result.State}), nil
}

// relayCommand sends a session command to a Runner and waits for its result
// on the RPC's goroutine. A failure to reach the Runner is Unavailable: the
// client retries with the same request id.
func (h *Hub) relayCommand(ctx context.Context, runnerID string, cmd *compassv1internal.SessionsResponse) (*compassv1internal.SessionsRequest, error) {
	router, err := h.routerForRunner(runnerID)
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err)
	}
	result, err := router.dispatch(ctx, cmd)
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err)
	}
	if result.Error != "" {
		return nil, errors.New(result.Error)
	}
	return result, nil
}
