package routerfixed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"router/protos"
)

var errConfigSubmitterStopped = errors.New("config submitter stopped")

// configSubmitter relays config updates to the consenters. A single
// goroutine, readConfigRequests, handles them one at a time, so config
// updates reach consensus in the order the router received them. Its replies
// never block, so no client can stall the others' config updates.
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

// Stop stops the config goroutine, which answers what is still queued.
func (cs *configSubmitter) Stop() {
	cs.stopOnce.Do(func() {
		close(cs.doneChannel) // ok: close is not a send
	})
}

// Forward queues a config update. It runs on the client's handler goroutine;
// ctx is the client's.
func (cs *configSubmitter) Forward(ctx context.Context, tr *TrackedRequest) {
	select {
	case cs.configRequestsChannel <- tr: // ok: cs.doneChannel and ctx are liveness cases
	case <-cs.doneChannel:
		tr.reply(Response{reqID: tr.reqID, err: errConfigSubmitterStopped})
	case <-ctx.Done():
		// The client left; nobody waits for an answer.
	}
}

// readConfigRequests is the config goroutine.
func (cs *configSubmitter) readConfigRequests() {
	for {
		select {
		case <-cs.doneChannel:
			cs.answerQueued()
			return
		case tr := <-cs.configRequestsChannel:
			cs.forwardRequest(tr)
		}
	}
}

// forwardRequest submits one config update and answers its client.
func (cs *configSubmitter) forwardRequest(tr *TrackedRequest) {
	if err := validateConfigRequest(tr.request); err != nil {
		tr.reply(Response{reqID: tr.reqID, err: fmt.Errorf("invalid config update: %w", err)})
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), cs.submitTimeout)
	defer cancel()
	resp, err := cs.consensus.SubmitConfig(ctx, tr.request)
	if err != nil {
		tr.reply(Response{reqID: tr.reqID, err: fmt.Errorf("consenters unreachable: %w", err)})
		return
	}
	if resp.Error != "" {
		tr.reply(Response{reqID: tr.reqID, err: fmt.Errorf("config update rejected: %s", resp.Error)})
		return
	}
	cs.logger.Info("config update submitted", "req", tr.reqID)
	tr.reply(Response{reqID: tr.reqID, SubmitResponse: resp})
}

// answerQueued tells the clients of the requests still queued at Stop that
// they will not be submitted.
func (cs *configSubmitter) answerQueued() {
	for {
		select {
		case tr := <-cs.configRequestsChannel:
			tr.reply(Response{reqID: tr.reqID, err: errConfigSubmitterStopped})
		default:
			return
		}
	}
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
