package router

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"router/protos"
)

const (
	streamOpenTimeout     = 5 * time.Second
	streamRequestsBufSize = 1000
)

var (
	errStreamClosed = errors.New("stream to batcher closed")
	errStreamFaulty = errors.New("stream to batcher is faulty")
)

// stream is one SubmitStream from the router to a batcher, shared by every
// client whose requests hash to it. Two goroutines serve it: sendRequests
// writes requests to the batcher, readResponses reads the batcher's answers
// and relays each to the client that is waiting for it.
type stream struct {
	logger                            *slog.Logger
	index                             streamIndex
	requestTransmitSubmitStreamClient protos.RequestTransmit_SubmitStreamClient
	cancel                            context.CancelFunc

	// requestsChannel carries the requests of every client routed here.
	requestsChannel chan *TrackedRequest
	// notifyReconnect is the shard router's reconnectRequests.
	notifyReconnect chan<- streamIndex
	doneChannel     chan struct{} // closed by stop
	stopOnce        sync.Once

	// faulty is set once the batcher stream failed; readResponses is what
	// notices a failure, so a stream whose readResponses is wedged never
	// turns faulty.
	faulty atomic.Bool

	lock sync.Mutex
	// requestsToClients maps the ID of each request sent to the batcher to
	// the channel of the client waiting for its answer. Guarded by lock.
	requestsToClients map[string]chan Response
	faultErr          error // guarded by lock
}

// newStream opens a SubmitStream and starts its two goroutines once the
// batcher has answered with its headers.
func newStream(ctx context.Context, logger *slog.Logger, client protos.RequestTransmitClient, idx streamIndex, reconnect chan<- streamIndex) (*stream, error) {
	ctx, cancel := context.WithCancel(ctx)
	grpcStream, err := client.SubmitStream(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	headers := make(chan error, 1)
	go func() {
		_, err := grpcStream.Header()
		headers <- err // ok: cap 1 and its only send, so it lands even after newStream has timed out and left
	}()
	select {
	case err := <-headers:
		if err != nil {
			cancel()
			return nil, err
		}
	case <-time.After(streamOpenTimeout):
		cancel()
		return nil, fmt.Errorf("batcher sent no headers within %v", streamOpenTimeout)
	}
	s := &stream{
		logger:                            logger,
		index:                             idx,
		requestTransmitSubmitStreamClient: grpcStream,
		cancel:                            cancel,
		requestsChannel:                   make(chan *TrackedRequest, streamRequestsBufSize),
		notifyReconnect:                   reconnect,
		doneChannel:                       make(chan struct{}),
		requestsToClients:                 make(map[string]chan Response),
	}
	go s.sendRequests()
	go s.readResponses()
	return s, nil
}

// sendRequests is the batcher stream's only writer: it takes each request
// off requestsChannel, registers it for its answer, and sends it.
func (s *stream) sendRequests() {
	for {
		select {
		case <-s.doneChannel:
			return
		case tr := <-s.requestsChannel:
			if s.isClosed() {
				// stop raced this request in; answer it rather than lose it.
				tr.responses <- Response{reqID: tr.reqID, err: errStreamClosed} // want "baresend: send on tr\\.responses"
				continue
			}
			if s.isFaulty() {
				tr.responses <- Response{reqID: tr.reqID, err: errStreamFaulty} // want "baresend: send on tr\\.responses"
				continue
			}
			if err := s.registerReply(tr); err != nil {
				s.responseToClientWithError(tr, err)
				continue
			}
			if err := s.requestTransmitSubmitStreamClient.Send(tr.request); err != nil { // ok: sendRequests is this stream's only sender and holds no lock
				s.responseToClientWithError(tr, err)
				s.markFaulty(err)
			}
		}
	}
}

// readResponses is the batcher stream's only reader. It is also the only
// goroutine that notices the stream failing.
func (s *stream) readResponses() {
	for {
		resp, err := s.requestTransmitSubmitStreamClient.Recv()
		if err != nil {
			s.markFaulty(err)
			s.sendResponseToAllClientsOnError(err)
			return
		}
		s.forwardResponseToClient(resp)
	}
}

// registerReply records where the answer to tr goes. A second request with
// an ID already in flight is refused: its answer could not be told apart.
func (s *stream) registerReply(tr *TrackedRequest) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	if _, inFlight := s.requestsToClients[tr.reqID]; inFlight {
		return fmt.Errorf("request %s is already in flight", tr.reqID)
	}
	s.requestsToClients[tr.reqID] = tr.responses
	tr.registered = true
	return nil
}

// forwardResponseToClient relays one batcher answer to its client. Whoever
// deletes a registration owes its reply, so a response for a request that is
// no longer registered was answered elsewhere.
func (s *stream) forwardResponseToClient(resp *protos.SubmitResponse) {
	reqID := string(resp.ReqID)
	s.lock.Lock()
	responses, ok := s.requestsToClients[reqID]
	delete(s.requestsToClients, reqID)
	s.lock.Unlock()
	if !ok {
		s.logger.Debug("answer for a request no longer registered", "req", reqID)
		return
	}
	// s.lock is released: lockedsend is quiet here, baresend is not.
	responses <- Response{reqID: reqID, SubmitResponse: resp} // want "baresend: send on responses"
}

// responseToClientWithError answers rr with err on the sendRequests
// goroutine. A request that never got registered is answered on its own
// channel; a registered one only if its registration is still there to claim.
func (s *stream) responseToClientWithError(rr *TrackedRequest, err error) {
	resp := Response{reqID: rr.reqID, err: err}
	if !rr.registered {
		rr.responses <- resp // want "baresend: send on rr\\.responses"
		return
	}
	s.lock.Lock()
	responses, owed := s.requestsToClients[rr.reqID]
	delete(s.requestsToClients, rr.reqID)
	s.lock.Unlock()
	if !owed {
		return
	}
	// s.lock is released: lockedsend is quiet here, baresend is not.
	responses <- resp // want "baresend: send on responses"
}

// sendResponseToAllClientsOnError answers every request the failed stream
// still owes: the registered ones, then those still queued on
// requestsChannel. It holds s.lock throughout so that nothing registers
// meanwhile, and so one client that does not read stops the registration
// map and the metrics reader with it.
func (s *stream) sendResponseToAllClientsOnError(err error) {
	s.lock.Lock()
	defer s.lock.Unlock()
	for reqID, responses := range s.requestsToClients {
		responses <- Response{reqID: reqID, err: err} // want `baresend: send on responses` `lockedsend: send on responses.*s\.lock`
		delete(s.requestsToClients, reqID)
	}
	for {
		select {
		case tr := <-s.requestsChannel:
			// The default makes the receive non-blocking, not this send.
			tr.responses <- Response{reqID: tr.reqID, err: err} // want `baresend: send on tr\.responses` `lockedsend: send on tr\.responses.*s\.lock`
		default:
			return
		}
	}
}

// markFaulty records the first failure of the stream and asks the shard
// router to replace it. The request waits, with s.lock held, until
// maintainStreams takes it or the stream is stopped.
func (s *stream) markFaulty(err error) {
	s.lock.Lock()
	defer s.lock.Unlock()
	if s.faultErr != nil {
		return
	}
	s.faultErr = err
	s.faulty.Store(true)
	s.logger.Warn("stream to batcher failed", "stream", s.index, "err", err)
	// baresend is quiet: s.doneChannel is a liveness case. lockedsend is not:
	// maintainStreams may be busy reconnecting another stream meanwhile.
	select {
	case s.notifyReconnect <- s.index: // want `lockedsend: send on s\.notifyReconnect.*s\.lock`
	case <-s.doneChannel:
	}
}

// pendingRequests is the metrics reader's view of the registration map.
func (s *stream) pendingRequests() int {
	s.lock.Lock()
	defer s.lock.Unlock()
	return len(s.requestsToClients)
}

func (s *stream) isFaulty() bool { return s.faulty.Load() }

func (s *stream) isClosed() bool {
	select {
	case <-s.doneChannel:
		return true
	default:
		return false
	}
}

// stop ends both goroutines: sendRequests at its next select, readResponses
// when the cancelled stream fails its Recv.
func (s *stream) stop() {
	s.stopOnce.Do(func() {
		close(s.doneChannel) // ok: close is not a send
		s.cancel()
	})
}
