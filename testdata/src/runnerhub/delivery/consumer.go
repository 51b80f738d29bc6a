// Package delivery reproduces the hub's notification delivery consumer: one
// goroutine tails the event bus and dispatches each notification to its
// recipient sessions, one session at a time behind that session's gate.
//
// Expected verdict: lockedsend at gatedDispatch's call to DispatchControl.
// The call is made with the session's gate held and reaches, through
// Hub.DispatchControl and commandRouter.send1, the Runner stream's Send. One
// Runner that stops reading parks the consumer's only goroutine there, and
// with it delivery to every session on every Runner, the settle and start
// queues, and the bus-lag check. The consumer's wakeups are non-blocking
// struct{} sends and stay quiet.
package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"

	"runnerhub"
)

var errBusClosed = errors.New("event bus subscription closed")

// Event is one entry of the event bus.
type Event struct {
	Seq     uint64
	Payload []byte
}

// Subscription is a live tail of the bus.
type Subscription struct {
	Live <-chan Event
}

// Bus is the event bus the consumer tails.
type Bus interface {
	Subscribe(ctx context.Context, fromSeq uint64) (*Subscription, error)
}

// notification is the payload of a bus event for the consumer.
type notification struct {
	ID         string   `json:"id"`
	Recipients []string `json:"recipients"`
	Body       []byte   `json:"body"`
}

// Consumer delivers bus notifications to sessions. Run is its only
// goroutine; Settled and Started may be called from any goroutine.
type Consumer struct {
	logger *slog.Logger
	hub    *runnerhub.Hub
	bus    Bus
	notify chan struct{} // cap 1: one pending wakeup covers any number

	mu      sync.Mutex
	pending map[string][]runnerhub.ControlOp // by session: sent, not yet acked; guarded by mu
	settles []settle                         // guarded by mu
	starts  []string                         // sessions that started; guarded by mu

	gatesMu sync.Mutex
	gates   map[string]*sync.Mutex // by session; guarded by gatesMu
}

// settle records that a session acked a notification.
type settle struct {
	sessionID string
	seq       uint64
}

// NewConsumer returns a consumer that delivers through hub.
func NewConsumer(logger *slog.Logger, hub *runnerhub.Hub, bus Bus) *Consumer {
	return &Consumer{
		logger:  logger,
		hub:     hub,
		bus:     bus,
		notify:  make(chan struct{}, 1),
		pending: make(map[string][]runnerhub.ControlOp),
		gates:   make(map[string]*sync.Mutex),
	}
}

// Run tails the bus from fromSeq until ctx ends. Everything the consumer
// does happens on this goroutine, in this loop.
func (c *Consumer) Run(ctx context.Context, fromSeq uint64) error {
	sub, err := c.bus.Subscribe(ctx, fromSeq)
	if err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-c.notify:
			c.drainSettles()
			c.drainStarts(ctx)
		case event, ok := <-sub.Live:
			if !ok {
				return errBusClosed
			}
			c.handleEvent(ctx, event)
		}
	}
}

// Settled records a session's ack of seq and wakes Run.
func (c *Consumer) Settled(sessionID string, seq uint64) {
	c.mu.Lock()
	c.settles = append(c.settles, settle{sessionID: sessionID, seq: seq})
	c.mu.Unlock()
	c.wake()
}

// Started records that a session (re)started, so that Run sweeps what it
// still owes that session, and wakes Run.
func (c *Consumer) Started(sessionID string) {
	c.mu.Lock()
	c.starts = append(c.starts, sessionID)
	c.mu.Unlock()
	c.wake()
}

func (c *Consumer) wake() {
	select {
	case c.notify <- struct{}{}: // ok: a wakeup already pending in the cap-1 buffer covers this one; struct{} carries nothing to lose
	default:
	}
}

// handleEvent delivers one notification to each of its recipients.
func (c *Consumer) handleEvent(ctx context.Context, event Event) {
	var n notification
	if err := json.Unmarshal(event.Payload, &n); err != nil {
		c.logger.Warn("undecodable bus event", "seq", event.Seq, "err", err)
		return
	}
	op := runnerhub.ControlOp{DeliverID: n.ID, Seq: event.Seq, Payload: n.Body}
	for _, sessionID := range n.Recipients {
		c.mu.Lock()
		c.pending[sessionID] = append(c.pending[sessionID], op)
		c.mu.Unlock()
		c.gatedDispatch(ctx, sessionID, op)
	}
}

// drainSettles forgets what the sessions acked.
func (c *Consumer) drainSettles() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.settles {
		ops := c.pending[s.sessionID]
		for len(ops) > 0 && ops[0].Seq <= s.seq {
			ops = ops[1:]
		}
		c.pending[s.sessionID] = ops
	}
	c.settles = nil
}

// drainStarts sweeps: it redelivers, in order, everything a started session
// has not acked yet.
func (c *Consumer) drainStarts(ctx context.Context) {
	c.mu.Lock()
	starts := c.starts
	c.starts = nil
	sweeps := make(map[string][]runnerhub.ControlOp, len(starts))
	for _, sessionID := range starts {
		sweeps[sessionID] = append([]runnerhub.ControlOp(nil), c.pending[sessionID]...)
	}
	c.mu.Unlock()
	for _, sessionID := range starts {
		for _, op := range sweeps[sessionID] {
			c.gatedDispatch(ctx, sessionID, op)
		}
	}
}
