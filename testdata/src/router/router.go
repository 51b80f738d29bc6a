// Package router reproduces the request router of a sharded ordering service
// as it was before its reply path was fixed. Clients submit over Broadcast
// (bidi stream), SubmitStream (bidi stream) or Submit (unary). The router
// forwards each request to its shard's batcher over a few streams that all
// clients share, or to the consenters if it is a config update, and relays
// the answer into the client's own bounded feedback channel.
//
// Every reply to a client is a bare send on that client's channel, and most
// are made by goroutines that every other client depends on: one client that
// stops reading wedges its stream's sendRequests or readResponses goroutine,
// or the single config goroutine, for good, and nothing logs or counts it.
// The throttle sites keep the TODO the system itself carried there: SoftStop
// ends the feedback goroutines while the handlers still send to them.
//
// Expected verdicts:
//   - baresend at the 16 client replies: 7 in stream.go, 1 in
//     shard_router.go, 4 in config_submitter.go, 4 in router.go;
//   - baresend at the two sends into channels shared by many clients
//     (a stream's requestsChannel, the configRequestsChannel);
//   - lockedsend at the two replies made under s.lock and at the reconnect
//     request made under it;
//   - singlesender is quiet: each client stream and each batcher stream has
//     exactly one sending goroutine;
//   - quiet too: the cap-1 headers channel and its one send, the struct{}
//     metrics wakeup in a select with default (silentdrop included), and
//     the closes.
package router

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/fnv"
	"io"
	"log/slog"
	"sync"
	"time"

	"router/protos"
)

var (
	errThrottled     = errors.New("router is over its request rate; retry later")
	errRouterStopped = errors.New("router is stopping")
)

// Response is what the router owes a client for one request: the batcher's
// or the consenters' answer, or the error that kept the request from one.
type Response struct {
	reqID          string
	SubmitResponse *protos.SubmitResponse
	err            error
}

// TrackedRequest is one client request on its way through the router. Every
// request of a client shares that client's responses channel.
type TrackedRequest struct {
	request   *protos.Request
	reqID     string
	responses chan Response
	// registered is set by the stream's sendRequests goroutine once the
	// request is in requestsToClients; only that goroutine reads it.
	registered bool
}

// Router is the client-facing service.
type Router struct {
	logger          *slog.Logger
	shardRouters    []*ShardRouter
	configSubmitter *configSubmitter
	throttle        *throttle

	drainChan chan struct{} // closed by SoftStop
	drainOnce sync.Once
	stopChan  chan struct{} // closed by Stop
	stopOnce  sync.Once
}

// NewRouter starts a router over its shard routers, relaying config updates
// to consensus and admitting rate requests per second (bursts of burst).
func NewRouter(logger *slog.Logger, shardRouters []*ShardRouter, consensus protos.ConsensusClient, configTimeout time.Duration, rate, burst float64) *Router {
	r := &Router{
		logger:          logger,
		shardRouters:    shardRouters,
		configSubmitter: newConfigSubmitter(logger, consensus, configTimeout),
		throttle:        newThrottle(rate, burst),
		drainChan:       make(chan struct{}),
		stopChan:        make(chan struct{}),
	}
	r.configSubmitter.Start()
	return r
}

// Broadcast serves one Broadcast client: it receives envelopes on the
// handler goroutine and lets a feedback goroutine write the answers.
func (r *Router) Broadcast(stream protos.AtomicBroadcast_BroadcastServer) error {
	feedbackChan := make(chan Response, 1000)
	go r.sendFeedbackOnBroadcastStream(stream, feedbackChan)
	for {
		env, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case <-r.stopChan:
			// The default below keeps the stop check from blocking; it does
			// nothing for this send, whose reader may be gone already.
			feedbackChan <- Response{err: errRouterStopped} // want "baresend: send on feedbackChan"
			return errRouterStopped
		default:
		}
		if !r.throttle.admit() {
			// TODO deal with drain signal
			feedbackChan <- Response{err: errThrottled} // want "baresend: send on feedbackChan"
			continue
		}
		req := &protos.Request{Payload: env.Payload, Signature: env.Signature}
		r.route(newTrackedRequest(req, feedbackChan), isConfigUpdate(env))
	}
}

// SubmitStream serves one SubmitStream client the way Broadcast does.
func (r *Router) SubmitStream(stream protos.RequestTransmit_SubmitStreamServer) error {
	feedbackChan := make(chan Response, 100)
	go r.sendFeedbackOnSubmitStream(stream, feedbackChan)
	for {
		req, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case <-r.stopChan:
			feedbackChan <- Response{err: errRouterStopped} // want "baresend: send on feedbackChan"
			return errRouterStopped
		default:
		}
		if !r.throttle.admit() {
			// TODO deal with drain signal
			feedbackChan <- Response{err: errThrottled} // want "baresend: send on feedbackChan"
			continue
		}
		r.route(newTrackedRequest(req, feedbackChan), false)
	}
}

// Submit serves one unary request. Its channel has room for the one reply
// the request gets, so a reply that arrives after ctx ends still lands.
func (r *Router) Submit(ctx context.Context, req *protos.Request) (*protos.SubmitResponse, error) {
	feedbackChan := make(chan Response, 1)
	tr := newTrackedRequest(req, feedbackChan)
	r.route(tr, false)
	select {
	case resp := <-feedbackChan:
		if resp.err != nil {
			return &protos.SubmitResponse{ReqID: []byte(tr.reqID), Error: resp.err.Error()}, nil
		}
		return resp.SubmitResponse, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// sendFeedbackOnBroadcastStream is the only goroutine that writes to a
// Broadcast stream. It stops at SoftStop, when the client leaves, or when a
// write fails; from then on nothing reads feedbackChan.
func (r *Router) sendFeedbackOnBroadcastStream(stream protos.AtomicBroadcast_BroadcastServer, feedbackChan <-chan Response) {
	for {
		select {
		case <-r.drainChan:
			return
		case <-stream.Context().Done():
			return
		case resp := <-feedbackChan:
			if err := stream.Send(toBroadcastResponse(resp)); err != nil { // ok: this goroutine is the stream's only sender and holds no lock
				r.logger.Debug("broadcast client gone", "err", err)
				return
			}
		}
	}
}

// sendFeedbackOnSubmitStream is sendFeedbackOnBroadcastStream for
// SubmitStream clients.
func (r *Router) sendFeedbackOnSubmitStream(stream protos.RequestTransmit_SubmitStreamServer, feedbackChan <-chan Response) {
	for {
		select {
		case <-r.drainChan:
			return
		case <-stream.Context().Done():
			return
		case resp := <-feedbackChan:
			if err := stream.Send(toSubmitResponse(resp)); err != nil { // ok: this goroutine is the stream's only sender and holds no lock
				r.logger.Debug("submit-stream client gone", "err", err)
				return
			}
		}
	}
}

// route hands a request to the config submitter or to its shard's router.
// It runs on the client's handler goroutine.
func (r *Router) route(tr *TrackedRequest, configUpdate bool) {
	if configUpdate {
		r.configSubmitter.Forward(tr)
		return
	}
	h := fnv.New32a()
	h.Write([]byte(tr.reqID))
	r.shardRouters[int(h.Sum32()%uint32(len(r.shardRouters)))].Forward(tr)
}

// SoftStop stops answering clients ahead of a restart: the feedback
// goroutines exit, while the handlers keep receiving until Stop.
func (r *Router) SoftStop() {
	r.drainOnce.Do(func() {
		close(r.drainChan) // ok: close is not a send
	})
	for _, sr := range r.shardRouters {
		sr.flushMetrics()
	}
}

// Stop ends the handlers, the shard routers and the config submitter.
func (r *Router) Stop() {
	r.stopOnce.Do(func() {
		close(r.stopChan) // ok: close is not a send
	})
	for _, sr := range r.shardRouters {
		sr.Stop()
	}
	r.configSubmitter.Stop()
}

func newTrackedRequest(req *protos.Request, responses chan Response) *TrackedRequest {
	sum := sha256.Sum256(append(append([]byte{}, req.Payload...), req.Signature...))
	return &TrackedRequest{request: req, reqID: hex.EncodeToString(sum[:]), responses: responses}
}

func isConfigUpdate(env *protos.Envelope) bool {
	h := env.GetHeader()
	return h != nil && h.Type == protos.HeaderType_CONFIG_UPDATE
}

func toBroadcastResponse(resp Response) *protos.BroadcastResponse {
	switch {
	case resp.err == nil && resp.SubmitResponse.Error == "":
		return &protos.BroadcastResponse{Status: protos.Status_SUCCESS}
	case errors.Is(resp.err, errThrottled), errors.Is(resp.err, errRouterStopped):
		return &protos.BroadcastResponse{Status: protos.Status_SERVICE_UNAVAILABLE, Info: resp.err.Error()}
	case resp.err != nil:
		return &protos.BroadcastResponse{Status: protos.Status_INTERNAL_SERVER_ERROR, Info: resp.err.Error()}
	default:
		return &protos.BroadcastResponse{Status: protos.Status_BAD_REQUEST, Info: resp.SubmitResponse.Error}
	}
}

func toSubmitResponse(resp Response) *protos.SubmitResponse {
	if resp.err != nil {
		return &protos.SubmitResponse{ReqID: []byte(resp.reqID), Error: resp.err.Error()}
	}
	return resp.SubmitResponse
}
