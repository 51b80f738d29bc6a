package runnerhubfixed

import (
	"context"
	"errors"
	"io"

	"connectrpc.com/connect"

	"runnerhub/compassv1internal"
)

var errStreamClosed = errors.New("runner sessions stream closed")

// Sessions serves one Runner's Sessions stream. The handler goroutine only
// receives; frames to the Runner are written by the router's sender
// goroutine, which attach starts and detach joins.
func (h *Hub) Sessions(ctx context.Context, stream *connect.BidiStream[compassv1internal.AgentFrame, compassv1internal.SessionsResponse]) error {
	first, err := stream.Receive()
	if err != nil {
		return err
	}
	hello := first.GetHello()
	if hello == nil {
		return errors.New("sessions stream must open with a hello frame")
	}
	router := h.enroll(hello.RunnerId)
	router.attach(stream.Send)
	defer router.detach(errStreamClosed)
	for {
		frame, err := stream.Receive()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		router.complete(frame)
	}
}
