package routerfixed

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"sync"
	"time"

	"router/protos"
)

const (
	metricsInterval  = 10 * time.Second
	reconnectBackoff = time.Second
)

// streamIndex names one stream of a shard router: which connection to the
// batcher, and which stream on it.
type streamIndex struct{ conn, stream int }

// ShardRouter forwards one shard's requests to its batcher over
// len(clients) connections × streamsPerConn streams. A request's stream is
// chosen from its ID, so every stream is shared by many clients at once.
type ShardRouter struct {
	logger          *slog.Logger
	shardID         uint16
	batcherEndpoint string
	clients         []protos.RequestTransmitClient // one per connection
	streamsPerConn  int

	lock    sync.RWMutex
	streams [][]*stream // [conn][stream]; nil while reconnecting; guarded by lock

	reconnectRequests chan streamIndex // read by maintainStreams
	metricsFlush      chan struct{}    // wakes reportMetrics early
	doneChannel       chan struct{}    // closed by Stop
	stopOnce          sync.Once
}

// NewShardRouter opens the shard's streams and starts the goroutines that
// keep them connected and report on them.
func NewShardRouter(logger *slog.Logger, shardID uint16, endpoint string, clients []protos.RequestTransmitClient, streamsPerConn int) *ShardRouter {
	sr := &ShardRouter{
		logger:            logger,
		shardID:           shardID,
		batcherEndpoint:   endpoint,
		clients:           clients,
		streamsPerConn:    streamsPerConn,
		streams:           make([][]*stream, len(clients)),
		reconnectRequests: make(chan streamIndex, len(clients)*streamsPerConn),
		metricsFlush:      make(chan struct{}, 1),
		doneChannel:       make(chan struct{}),
	}
	for c := range clients {
		sr.streams[c] = make([]*stream, streamsPerConn)
		for s := range streamsPerConn {
			if idx := (streamIndex{conn: c, stream: s}); !sr.connect(idx) {
				go sr.reconnect(idx)
			}
		}
	}
	go sr.maintainStreams()
	go sr.reportMetrics()
	return sr
}

// Forward sends trackedReq to the batcher. It runs on the client's handler
// goroutine; ctx is the client's.
func (sr *ShardRouter) Forward(ctx context.Context, trackedReq *TrackedRequest) {
	st := sr.streamFor(trackedReq.reqID)
	if st == nil {
		trackedReq.reply(Response{reqID: trackedReq.reqID, err: fmt.Errorf("no stream to batcher %s of shard %d", sr.batcherEndpoint, sr.shardID)})
		return
	}
	// Every client routed to st shares requestsChannel: wait for room only
	// while st runs and the client is still there.
	select {
	case st.requestsChannel <- trackedReq: // ok: st.doneChannel and ctx are liveness cases
	case <-st.doneChannel:
		trackedReq.reply(Response{reqID: trackedReq.reqID, err: errStreamClosed})
	case <-ctx.Done():
		// The client left; nobody waits for an answer.
	}
}

// streamFor picks the stream for a request ID; nil if that stream is
// reconnecting or faulty.
func (sr *ShardRouter) streamFor(reqID string) *stream {
	h := fnv.New32a()
	h.Write([]byte(reqID))
	n := h.Sum32()
	sr.lock.RLock()
	defer sr.lock.RUnlock()
	st := sr.streams[n%uint32(len(sr.streams))][n/uint32(len(sr.streams))%uint32(sr.streamsPerConn)]
	if st == nil || st.isFaulty() {
		return nil
	}
	return st
}

// IsAllStreamsOKinSR reports whether every stream is connected and not
// faulty; the router's readiness probe asks it. Replies never block, so a
// stream that reads as healthy is also making progress.
func (sr *ShardRouter) IsAllStreamsOKinSR() bool {
	sr.lock.RLock()
	defer sr.lock.RUnlock()
	for _, conn := range sr.streams {
		for _, st := range conn {
			if st == nil || st.isFaulty() {
				return false
			}
		}
	}
	return true
}

// maintainStreams replaces the streams that report themselves faulty.
func (sr *ShardRouter) maintainStreams() {
	for {
		select {
		case <-sr.doneChannel:
			return
		case idx := <-sr.reconnectRequests:
			sr.reconnect(idx)
		}
	}
}

// reconnect retires the stream at idx and opens a new one, retrying until it
// succeeds or the shard router stops.
func (sr *ShardRouter) reconnect(idx streamIndex) {
	sr.lock.Lock()
	old := sr.streams[idx.conn][idx.stream]
	sr.streams[idx.conn][idx.stream] = nil
	sr.lock.Unlock()
	if old != nil {
		old.stop()
	}
	for !sr.connect(idx) {
		select {
		case <-sr.doneChannel:
			return
		case <-time.After(reconnectBackoff):
		}
	}
}

// connect opens the stream at idx and installs it.
func (sr *ShardRouter) connect(idx streamIndex) bool {
	st, err := newStream(context.Background(), sr.logger, sr.clients[idx.conn], idx, sr.reconnectRequests)
	if err != nil {
		sr.logger.Warn("cannot open stream to batcher", "shard", sr.shardID, "endpoint", sr.batcherEndpoint, "err", err)
		return false
	}
	sr.lock.Lock()
	sr.streams[idx.conn][idx.stream] = st
	sr.lock.Unlock()
	return true
}

// reportMetrics logs how many requests await a reply, every metricsInterval
// and whenever flushMetrics asks.
func (sr *ShardRouter) reportMetrics() {
	ticker := time.NewTicker(metricsInterval)
	defer ticker.Stop()
	for {
		select {
		case <-sr.doneChannel:
			return
		case <-ticker.C:
		case <-sr.metricsFlush:
		}
		sr.logger.Info("shard router", "shard", sr.shardID, "awaiting_reply", sr.pendingRequests())
	}
}

// pendingRequests sums the streams' registration maps, each read under its
// stream's lock.
func (sr *ShardRouter) pendingRequests() int {
	sr.lock.RLock()
	defer sr.lock.RUnlock()
	n := 0
	for _, conn := range sr.streams {
		for _, st := range conn {
			if st != nil {
				n += st.pendingRequests()
			}
		}
	}
	return n
}

// flushMetrics asks reportMetrics for a report now.
func (sr *ShardRouter) flushMetrics() {
	select {
	case sr.metricsFlush <- struct{}{}: // ok: a wakeup already pending in the cap-1 buffer covers this one; struct{} carries nothing to lose
	default:
	}
}

// Stop stops the shard router and all its streams.
func (sr *ShardRouter) Stop() {
	sr.stopOnce.Do(func() {
		close(sr.doneChannel) // ok: close is not a send
	})
	var streams []*stream
	sr.lock.RLock()
	for _, conn := range sr.streams {
		for _, st := range conn {
			if st != nil {
				streams = append(streams, st)
			}
		}
	}
	sr.lock.RUnlock()
	for _, st := range streams {
		st.stop()
	}
}
