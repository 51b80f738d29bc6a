package routerfixed

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
// and relays each to the client that is waiting for it. Neither ever waits
// for a client.
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

	// faulty is set once the batcher stream failed.
	faulty atomic.Bool

	lock sync.Mutex
	// requestsToClients maps the ID of each request sent to the batcher to
	// the request, which knows its client. Guarded by lock.
	requestsToClients map[string]*TrackedRequest
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
		requestsToClients:                 make(map[string]*TrackedRequest),
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
				tr.reply(Response{reqID: tr.reqID, err: errStreamClosed})
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

// readResponses is the batcher stream's only reader, and the goroutine that
// notices the stream failing.
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

// registerReply records where the answer to tr goes. It refuses a request
// whose ID is already in flight, and any request once the stream is faulty:
// markFaulty sets faultErr under the same lock, so every registration either
// precedes the sweep in sendResponseToAllClientsOnError or is refused.
func (s *stream) registerReply(tr *TrackedRequest) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	if s.faultErr != nil {
		return errStreamFaulty
	}
	if _, inFlight := s.requestsToClients[tr.reqID]; inFlight {
		return fmt.Errorf("request %s is already in flight", tr.reqID)
	}
	s.requestsToClients[tr.reqID] = tr
	tr.registered = true
	return nil
}

// forwardResponseToClient relays one batcher answer to its client. Whoever
// deletes a registration owes its reply.
func (s *stream) forwardResponseToClient(resp *protos.SubmitResponse) {
	reqID := string(resp.ReqID)
	s.lock.Lock()
	tr, ok := s.requestsToClients[reqID]
	delete(s.requestsToClients, reqID)
	s.lock.Unlock()
	if !ok {
		s.logger.Debug("answer for a request no longer registered", "req", reqID)
		return
	}
	tr.reply(Response{reqID: reqID, SubmitResponse: resp})
}

// responseToClientWithError answers rr with err on the sendRequests
// goroutine. A request that never got registered is answered directly; a
// registered one only if its registration is still there to claim.
func (s *stream) responseToClientWithError(rr *TrackedRequest, err error) {
	resp := Response{reqID: rr.reqID, err: err}
	if !rr.registered {
		rr.reply(resp)
		return
	}
	s.lock.Lock()
	_, owed := s.requestsToClients[rr.reqID]
	delete(s.requestsToClients, rr.reqID)
	s.lock.Unlock()
	if owed {
		rr.reply(resp)
	}
}

// sendResponseToAllClientsOnError answers every request the failed stream
// still owes: the registered ones, claimed under s.lock, then those still
// queued on requestsChannel. The replies are made after the lock is
// released, so the metrics reader never waits on a client.
func (s *stream) sendResponseToAllClientsOnError(err error) {
	s.lock.Lock()
	owed := make([]*TrackedRequest, 0, len(s.requestsToClients))
	for reqID, tr := range s.requestsToClients {
		owed = append(owed, tr)
		delete(s.requestsToClients, reqID)
	}
	s.lock.Unlock()
	for drained := false; !drained; {
		select {
		case tr := <-s.requestsChannel:
			owed = append(owed, tr)
		default:
			drained = true
		}
	}
	for _, tr := range owed {
		tr.reply(Response{reqID: tr.reqID, err: err})
	}
}

// markFaulty records the first failure of the stream and, once the lock is
// released, asks the shard router to replace it.
func (s *stream) markFaulty(err error) {
	s.lock.Lock()
	first := s.faultErr == nil
	if first {
		s.faultErr = err
		s.faulty.Store(true)
	}
	s.lock.Unlock()
	if !first {
		return
	}
	s.logger.Warn("stream to batcher failed", "stream", s.index, "err", err)
	select {
	case s.notifyReconnect <- s.index: // ok: no lock held, and s.doneChannel is a liveness case
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
