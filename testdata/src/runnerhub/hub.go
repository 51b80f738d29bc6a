package runnerhub

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync"
)

// Hub is the server side of the Runners' Sessions streams. It enrolls each
// Runner that attaches, knows which Runner hosts which session, and relays
// deliveries, session commands and signals to the Runners.
type Hub struct {
	logger *slog.Logger

	mu        sync.RWMutex
	routers   map[string]*commandRouter // by Runner ID; guarded by mu
	placement map[string]string         // session ID → Runner ID; guarded by mu
}

// NewHub returns a hub with no Runner enrolled.
func NewHub(logger *slog.Logger) *Hub {
	return &Hub{
		logger:    logger,
		routers:   make(map[string]*commandRouter),
		placement: make(map[string]string),
	}
}

// enroll returns the Runner's router, creating it on the Runner's first
// attach. A router outlives its streams: a Runner that reconnects gets the
// same one back.
func (h *Hub) enroll(runnerID string) *commandRouter {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.routers[runnerID]
	if !ok {
		r = newCommandRouter(runnerID, h.logger)
		h.routers[runnerID] = r
	}
	return r
}

// routerForRunner returns an enrolled Runner's router.
func (h *Hub) routerForRunner(runnerID string) (*commandRouter, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	r, ok := h.routers[runnerID]
	if !ok {
		return nil, fmt.Errorf("runner %q is not enrolled", runnerID)
	}
	return r, nil
}

// routerForSession returns the router of the Runner hosting a session.
func (h *Hub) routerForSession(sessionID string) (*commandRouter, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	runnerID, ok := h.placement[sessionID]
	if !ok {
		return nil, fmt.Errorf("session %q is not placed on any runner", sessionID)
	}
	r, ok := h.routers[runnerID]
	if !ok {
		return nil, fmt.Errorf("runner %q of session %q is not enrolled", runnerID, sessionID)
	}
	return r, nil
}

// attachedRouters returns every enrolled Runner's router. The caller uses
// the copy after h.mu is released.
func (h *Hub) attachedRouters() []*commandRouter {
	h.mu.RLock()
	defer h.mu.RUnlock()
	routers := make([]*commandRouter, 0, len(h.routers))
	for _, r := range h.routers {
		routers = append(routers, r)
	}
	return routers
}

func (h *Hub) place(sessionID, runnerID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.placement[sessionID] = runnerID
}

func (h *Hub) unplace(sessionID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.placement, sessionID)
}

// newRequestID names a frame the hub originates, such as a signal.
func newRequestID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
