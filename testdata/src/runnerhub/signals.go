package runnerhub

import (
	"context"

	"connectrpc.com/connect"

	"runnerhub/compassv1internal"
)

// SignalSecretsVersion tells every attached Runner that the secrets changed.
func (h *Hub) SignalSecretsVersion(ctx context.Context, req *connect.Request[compassv1internal.SignalSecretsVersionRequest]) (*connect.Response[compassv1internal.SignalSecretsVersionResponse], error) {
	cmd := &compassv1internal.SessionsResponse{
		RequestId: newRequestID(),
		Signal:    &compassv1internal.Signal{SecretsVersion: req.Msg.Version},
	}
	if err := h.signalAll(cmd); err != nil {
		return nil, err
	}
	return connect.NewResponse(&compassv1internal.SignalSecretsVersionResponse{}), nil
}

// SignalConfigVersion tells every attached Runner that the config changed.
func (h *Hub) SignalConfigVersion(ctx context.Context, req *connect.Request[compassv1internal.SignalConfigVersionRequest]) (*connect.Response[compassv1internal.SignalConfigVersionResponse], error) {
	cmd := &compassv1internal.SessionsResponse{
		RequestId: newRequestID(),
		Signal:    &compassv1internal.Signal{ConfigVersion: req.Msg.Version},
	}
	if err := h.signalAll(cmd); err != nil {
		return nil, err
	}
	return connect.NewResponse(&compassv1internal.SignalConfigVersionResponse{}), nil
}

// signalAll pushes a signal to each Runner in turn, on the RPC's goroutine,
// with h.mu released; the first failure ends the RPC.
func (h *Hub) signalAll(cmd *compassv1internal.SessionsResponse) error {
	for _, router := range h.attachedRouters() {
		if err := router.push(cmd); err != nil {
			return connect.NewError(connect.CodeUnavailable, err)
		}
	}
	return nil
}
