package delivery

import (
	"context"
	"sync"

	"runnerhub"
)

// gate returns the session's gate, which keeps deliveries to one session in
// the order the consumer decided them.
func (c *Consumer) gate(sessionID string) *sync.Mutex {
	c.gatesMu.Lock()
	defer c.gatesMu.Unlock()
	g, ok := c.gates[sessionID]
	if !ok {
		g = new(sync.Mutex)
		c.gates[sessionID] = g
	}
	return g
}

// gatedDispatch hands op to the hub with the session's gate held. A refusal
// is not fatal: the cursor moves only on the session's ack, so the sweep on
// the session's next start redelivers.
func (c *Consumer) gatedDispatch(ctx context.Context, sessionID string, op runnerhub.ControlOp) {
	gate := c.gate(sessionID)
	gate.Lock()
	defer gate.Unlock()
	// DispatchControl ends in send1's send(cmd), the Runner stream's Send
	// under sendMu. A Runner that stops reading parks it on HTTP/2 flow
	// control with this gate held, on the consumer's only goroutine.
	if err := c.hub.DispatchControl(ctx, sessionID, op); err != nil { // want `lockedsend: .*DispatchControl.*gate`
		c.logger.Warn("dispatch to session failed; leaving it to the sweep", "session", sessionID, "deliver", op.DeliverID, "err", err)
	}
}
