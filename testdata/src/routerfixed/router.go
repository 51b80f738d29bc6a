// Package routerfixed is the router of package router after its reply path
// was fixed, and the clean counterpart of that fixture:
//   - every reply to a client goes through TrackedRequest.reply, which never
//     blocks and logs and counts the reply it has to drop;
//   - nothing is sent while s.lock is held: the stream collects what it owes
//     under the lock and answers after releasing it;
//   - the handlers' throttle and stop replies give up on drainChan or the
//     client's context, and a draining handler stops receiving;
//   - the sends into the shared requestsChannel and configRequestsChannel
//     give up when their reader stops or the client leaves.
//
// Expected verdict: no diagnostic from any pass.
package routerfixed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/fnv"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"router/protos"
)

var (
	errThrottled      = errors.New("router is over its request rate; retry later")
	errRouterStopped  = errors.New("router is stopping")
	errRouterDraining = errors.New("router is draining; reconnect elsewhere")
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
	drops     *replyDrops
	// registered is set by the stream's sendRequests goroutine once the
	// request is in requestsToClients; only that goroutine reads it.
	registered bool
}

// replyDrops counts, and logs, the replies that found their client's channel
// full. One per router, shared by all its clients.
type replyDrops struct {
	logger *slog.Logger
	count  atomic.Uint64
}

// reply hands resp to the client without blocking. Replies are made by
// goroutines that serve every client (a stream's two goroutines, the config
// goroutine), so a client that stops reading must cost only its own replies:
// the reply is dropped, and the drop is logged and counted so that such a
// client shows from outside. It reports whether the reply was delivered.
func (tr *TrackedRequest) reply(resp Response) bool {
	select {
	case tr.responses <- resp: // ok: non-blocking, and the default logs and counts the drop
		return true
	default:
		n := tr.drops.count.Add(1)
		tr.drops.logger.Warn("client is not reading its replies; reply dropped", "req", tr.reqID, "err", resp.err, "dropped_total", n)
		return false
	}
}

// Router is the client-facing service.
type Router struct {
	logger          *slog.Logger
	shardRouters    []*ShardRouter
	configSubmitter *configSubmitter
	throttle        *throttle
	drops           *replyDrops

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
		drops:           &replyDrops{logger: logger},
		drainChan:       make(chan struct{}),
		stopChan:        make(chan struct{}),
	}
	r.configSubmitter.Start()
	return r
}

// Broadcast serves one Broadcast client: it receives envelopes on the
// handler goroutine and lets a feedback goroutine write the answers.
func (r *Router) Broadcast(stream protos.AtomicBroadcast_BroadcastServer) error {
	ctx := stream.Context()
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
		if err := r.acceptNext(ctx, feedbackChan); err != nil {
			return err
		}
		req := &protos.Request{Payload: env.Payload, Signature: env.Signature}
		r.route(ctx, r.track(req, feedbackChan), isConfigUpdate(env))
	}
}

// SubmitStream serves one SubmitStream client the way Broadcast does.
func (r *Router) SubmitStream(stream protos.RequestTransmit_SubmitStreamServer) error {
	ctx := stream.Context()
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
		if err := r.acceptNext(ctx, feedbackChan); err != nil {
			return err
		}
		r.route(ctx, r.track(req, feedbackChan), false)
	}
}

// acceptNext decides, on a streaming handler's goroutine, whether its next
// request goes on. A draining router ends the stream, since no feedback goroutine is
// left to answer; a stopping one says so first; a throttled request is
// answered at once. A non-nil error ends the handler.
func (r *Router) acceptNext(ctx context.Context, feedbackChan chan<- Response) error {
	select {
	case <-r.drainChan:
		return errRouterDraining
	case <-r.stopChan:
		if err := r.feedback(ctx, feedbackChan, Response{err: errRouterStopped}); err != nil {
			return err
		}
		return errRouterStopped
	default:
	}
	if r.throttle.admit() {
		return nil
	}
	return r.feedback(ctx, feedbackChan, Response{err: errThrottled})
}

// feedback hands resp to the handler's own feedback goroutine, giving up once
// that goroutine is gone for good: after SoftStop, or when the client left.
func (r *Router) feedback(ctx context.Context, feedbackChan chan<- Response, resp Response) error {
	select {
	case feedbackChan <- resp: // ok: drainChan and ctx are liveness cases
		return nil
	case <-r.drainChan:
		return errRouterDraining
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Submit serves one unary request. Its channel has room for the one reply
// the request gets, so a reply that arrives after ctx ends still lands.
func (r *Router) Submit(ctx context.Context, req *protos.Request) (*protos.SubmitResponse, error) {
	feedbackChan := make(chan Response, 1)
	tr := r.track(req, feedbackChan)
	r.route(ctx, tr, false)
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
// write fails.
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
// It runs on the client's handler goroutine; ctx is the client's.
func (r *Router) route(ctx context.Context, tr *TrackedRequest, configUpdate bool) {
	if configUpdate {
		r.configSubmitter.Forward(ctx, tr)
		return
	}
	h := fnv.New32a()
	h.Write([]byte(tr.reqID))
	r.shardRouters[int(h.Sum32()%uint32(len(r.shardRouters)))].Forward(ctx, tr)
}

// SoftStop stops answering clients ahead of a restart: the feedback
// goroutines exit and the streaming handlers end at their next request.
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

// track makes the TrackedRequest for a client request.
func (r *Router) track(req *protos.Request, responses chan Response) *TrackedRequest {
	sum := sha256.Sum256(append(append([]byte{}, req.Payload...), req.Signature...))
	return &TrackedRequest{request: req, reqID: hex.EncodeToString(sum[:]), responses: responses, drops: r.drops}
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
