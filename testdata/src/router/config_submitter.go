package router

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"router/protos"
)

// configSubmitter relays config updates to the consenters. A single
// goroutine, readConfigRequests, handles them one at a time, so config
// updates reach consensus in the order the router received them, and every
// client's config reply is made on that one goroutine.
type configSubmitter struct {
	logger        *slog.Logger
	consensus     protos.ConsensusClient
	submitTimeout time.Duration

	configRequestsChannel chan *TrackedRequest
	doneChannel           chan struct{} // closed by Stop
	stopOnce              sync.Once
}

func newConfigSubmitter(logger *slog.Logger, consensus protos.ConsensusClient, submitTimeout time.Duration) *configSubmitter {
	return &configSubmitter{
		logger:                logger,
		consensus:             consensus,
		submitTimeout:         submitTimeout,
		configRequestsChannel: make(chan *TrackedRequest, 100),
		doneChannel:           make(chan struct{}),
	}
}

// Start starts the config goroutine.
func (cs *configSubmitter) Start() { go cs.readConfigRequests() }

// Stop stops the config goroutine; requests still queued stay unanswered.
func (cs *configSubmitter) Stop() {
	cs.stopOnce.Do(func() {
		close(cs.doneChannel) // ok: close is not a send
	})
}

// Forward queues a config update. It runs on the client's handler goroutine.
func (cs *configSubmitter) Forward(tr *TrackedRequest) {
	// Shared by every client; its only reader stops at Stop and wedges on any
	// one client's reply.
	cs.configRequestsChannel <- tr // want "baresend: send on cs\\.configRequestsChannel"
}

// readConfigRequests is the config goroutine.
func (cs *configSubmitter) readConfigRequests() {
	for {
		select {
		case <-cs.doneChannel:
			return
		case tr := <-cs.configRequestsChannel:
			cs.forwardRequest(tr)
		}
	}
}

// forwardRequest submits one config update and answers its client.
func (cs *configSubmitter) forwardRequest(tr *TrackedRequest) {
	if err := validateConfigRequest(tr.request); err != nil {
		tr.responses <- Response{reqID: tr.reqID, err: fmt.Errorf("invalid config update: %w", err)} // want "baresend: send on tr\\.responses"
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), cs.submitTimeout)
	defer cancel()
	resp, err := cs.consensus.SubmitConfig(ctx, tr.request)
	if err != nil {
		tr.responses <- Response{reqID: tr.reqID, err: fmt.Errorf("consenters unreachable: %w", err)} // want "baresend: send on tr\\.responses"
		return
	}
	if resp.Error != "" {
		tr.responses <- Response{reqID: tr.reqID, err: fmt.Errorf("config update rejected: %s", resp.Error)} // want "baresend: send on tr\\.responses"
		return
	}
	cs.logger.Info("config update submitted", "req", tr.reqID)
	tr.responses <- Response{reqID: tr.reqID, SubmitResponse: resp} // want "baresend: send on tr\\.responses"
}

// validateConfigRequest checks what the router can check alone: that the
// update is there and signed. The consenters validate the rest.
func validateConfigRequest(req *protos.Request) error {
	switch {
	case len(req.Payload) == 0:
		return errors.New("empty payload")
	case len(req.Signature) == 0:
		return errors.New("unsigned")
	}
	return nil
}
