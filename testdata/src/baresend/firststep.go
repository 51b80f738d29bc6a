package baresend

import (
	"context"
	"errors"
	"sync/atomic"
)

// A ring client writes a batch of keys to the replicas that own them, one
// worker per replica, and returns on the first failure, on the last
// success, or when the caller gives up. The workers report into one-slot
// channels of a tracker made per batch; an atomic counter lets only the
// first failure and the last success through, so each slot sees one value
// at most, even from workers still running after the caller returned.

type replicaKeys struct {
	addr string
	keys []uint32
}

type batchTracker struct {
	pending atomic.Int32
	failed  atomic.Int32
	done    chan struct{}
	err     chan error
}

func (b *batchTracker) record(err error) {
	if err != nil {
		if b.failed.Add(1) == 1 {
			b.err <- err // ok: the first failure only
		}
		return
	}
	if b.pending.Add(-1) == 0 {
		b.done <- struct{}{} // ok: the last success only
	}
}

// writeReplicas is the guarded batch: quiet.
func writeReplicas(ctx context.Context, replicas []replicaKeys, write func(replicaKeys) error) error {
	b := batchTracker{
		done: make(chan struct{}, 1),
		err:  make(chan error, 1),
	}
	b.pending.Store(int32(len(replicas))) // before any worker starts
	for _, r := range replicas {
		go func() { b.record(write(r)) }()
	}
	return b.wait(ctx)
}

func (b *batchTracker) wait(ctx context.Context) error {
	select {
	case err := <-b.err:
		return err
	case <-b.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Without the guard every failed worker sends, and all but the first
// block for good once the caller has returned. The method runs once per
// call, but it is called once per worker, and there are many workers for
// each tracker.

type failTracker struct {
	err chan error
}

func (t *failTracker) fail(err error) {
	t.err <- err // want `send on t\.err \(chan error, cap 1\) can block forever: writeEach can return without the \*failTracker it made while the goroutine that sends here runs on`
}

func writeEach(ctx context.Context, replicas []replicaKeys, write func(replicaKeys) error) error {
	t := failTracker{err: make(chan error, 1)}
	for _, r := range replicas {
		go func() {
			if err := write(r); err != nil {
				t.fail(err)
			}
		}()
	}
	select {
	case err := <-t.err:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The same, with a named worker that the loop starts.

type replicaErrs struct {
	err chan error
}

func (t *replicaErrs) fail(err error) {
	t.err <- err // want `send on t\.err \(chan error, cap 1\) can block forever: writeEachNamed can return without the \*replicaErrs it made while the goroutine that sends here runs on`
}

func writeReplica(t *replicaErrs, r replicaKeys, write func(replicaKeys) error) {
	if err := write(r); err != nil {
		t.fail(err)
	}
}

func writeEachNamed(ctx context.Context, replicas []replicaKeys, write func(replicaKeys) error) error {
	t := &replicaErrs{err: make(chan error, 1)}
	for _, r := range replicas {
		go writeReplica(t, r, write)
	}
	select {
	case err := <-t.err:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The same, with workers run by the caller's executor: each literal the
// loop makes is a worker. What the executor does with them is out of
// sight, so the finding is the audit tier's.

type spawnedErrs struct {
	err chan error
}

func (t *spawnedErrs) fail(err error) {
	t.err <- err // want `send on t\.err \(chan error, cap 1\) can block forever: its receiver writeSpawned can stop receiving.*\[audit: its buffer \(cap 1\) is not shown to receive more values than it holds\]`
}

func writeSpawned(ctx context.Context, replicas []replicaKeys, write func(replicaKeys) error, spawn func(func())) error {
	t := &spawnedErrs{err: make(chan error, 1)}
	for _, r := range replicas {
		spawn(func() {
			if err := write(r); err != nil {
				t.fail(err)
			}
		})
	}
	select {
	case err := <-t.err:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A tracker that retries the batch resets its counter while the workers of
// the first try may still be failing: two failures can each be the first.

type retryTracker struct {
	failed atomic.Int32
	err    chan error
}

func (t *retryTracker) record(err error) {
	if t.failed.Add(1) == 1 {
		t.err <- err // want `send on t\.err \(chan error, cap 1\) can block forever: writeRetrying can return without the \*retryTracker it made while the goroutine that sends here runs on`
	}
}

func (t *retryTracker) retry() { t.failed.Store(0) }

func writeRetrying(ctx context.Context, replicas []replicaKeys, write func(replicaKeys) error) error {
	t := retryTracker{err: make(chan error, 1)}
	for try := 0; try < 2; try++ {
		t.retry()
		for _, r := range replicas {
			go func() {
				if err := write(r); err != nil {
					t.record(err)
				}
			}()
		}
	}
	select {
	case err := <-t.err:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A counter that workers also give back goes through 1 again.

type inflightTracker struct {
	inflight atomic.Int32
	err      chan error
}

func (t *inflightTracker) record(err error) {
	if t.inflight.Add(1) == 1 {
		t.err <- err // want `send on t\.err \(chan error, cap 1\) can block forever: writeInflight can return without the \*inflightTracker it made while the goroutine that sends here runs on`
	}
	t.inflight.Add(-1)
}

func writeInflight(ctx context.Context, replicas []replicaKeys, write func(replicaKeys) error) error {
	t := inflightTracker{err: make(chan error, 1)}
	for _, r := range replicas {
		go func() { t.record(write(r)) }()
	}
	select {
	case err := <-t.err:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A counter of the client, shared by all its batches, lets one failure
// through in all, not one per batch: the second batch's first failure
// finds its slot's counter already past one, and its other failures are
// not bounded by it either.

type ringClient struct {
	failures atomic.Int32
}

type clientTracker struct {
	client *ringClient
	err    chan error
}

func (t *clientTracker) record(err error) {
	if t.client.failures.Add(1) == 1 {
		t.err <- err // want `send on t\.err \(chan error, cap 1\) can block forever: writeClient can return without the \*clientTracker it made while the goroutine that sends here runs on`
	}
}

func writeClient(ctx context.Context, c *ringClient, replicas []replicaKeys, write func(replicaKeys) error) error {
	t := clientTracker{client: c, err: make(chan error, 1)}
	for _, r := range replicas {
		go func() { t.record(write(r)) }()
	}
	select {
	case err := <-t.err:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The older API steps a plain field; a plain store can set it back.

type legacyTracker struct {
	failed int32
	err    chan error
}

func (t *legacyTracker) record(err error) {
	if atomic.AddInt32(&t.failed, 1) == 1 {
		t.err <- err // want `send on t\.err \(chan error, cap 1\) can block forever: writeLegacy can return without the \*legacyTracker it made while the goroutine that sends here runs on`
	}
}

func (t *legacyTracker) clear() { t.failed = 0 }

func writeLegacy(ctx context.Context, replicas []replicaKeys, write func(replicaKeys) error) error {
	t := legacyTracker{err: make(chan error, 1)}
	for _, r := range replicas {
		go func() {
			t.record(write(r))
			t.clear()
		}()
	}
	select {
	case err := <-t.err:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A stop flag that only ever goes from false to true lets one stopper
// through; one that a restart sets back lets two.

type stopOnce struct {
	stopped atomic.Bool
	stopc   chan struct{}
}

func (s *stopOnce) stopFirst() {
	if s.stopped.CompareAndSwap(false, true) {
		s.stopc <- struct{}{} // ok: one stopper per object
	}
}

func runStoppers(ctx context.Context, n int) {
	s := stopOnce{stopc: make(chan struct{}, 1)}
	for range n {
		go s.stopFirst()
	}
	select {
	case <-s.stopc:
	case <-ctx.Done():
	}
}

type restartable struct {
	stopped atomic.Bool
	stopc   chan struct{}
}

func (s *restartable) halt() {
	if !s.stopped.CompareAndSwap(false, true) {
		return
	}
	s.stopc <- struct{}{} // want `send on s\.stopc \(chan struct\{\}, cap 1\) can block forever`
}

func (s *restartable) restart() { s.stopped.CompareAndSwap(true, false) }

func runRestartable(ctx context.Context, n int) {
	s := restartable{stopc: make(chan struct{}, 1)}
	for range n {
		go s.halt()
		go s.restart()
	}
	select {
	case <-s.stopc:
	case <-ctx.Done():
	}
}

// A tracker reused for the next batch is reset whole, counter and slot,
// while workers of the last batch may still fail into the new slot.

type reusedTracker struct {
	failed atomic.Int32
	err    chan error
}

func (t *reusedTracker) record(err error) {
	if t.failed.Add(1) == 1 {
		t.err <- err // want `send on t\.err \(chan error, cap 1\) can block forever`
	}
}

var errSkipBatch = errors.New("skip batch")

func (t *reusedTracker) reset() { *t = reusedTracker{err: make(chan error, 1)} }

func writeReused(ctx context.Context, batches [][]replicaKeys, write func(replicaKeys) error) error {
	t := &reusedTracker{err: make(chan error, 1)}
	for _, replicas := range batches {
		for _, r := range replicas {
			go func() { t.record(write(r)) }()
		}
		select {
		case err := <-t.err:
			if !errors.Is(err, errSkipBatch) {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
		t.reset()
	}
	return nil
}

// Workers that hand the batch on to one another by starting the next: the
// walk up from the sender through go statements comes back to where it
// started, and must end there.

type relayTracker struct {
	err chan error
}

func (t *relayTracker) fail(err error) { t.err <- err }

func relayPing(t *relayTracker, hops int, write func() error) {
	if err := write(); err != nil || hops == 0 {
		t.fail(err)
		return
	}
	go relayPong(t, hops-1, write)
}

func relayPong(t *relayTracker, hops int, write func() error) {
	go relayPing(t, hops-1, write)
}

func relayBatch(write func() error) error {
	t := &relayTracker{err: make(chan error, 1)}
	go relayPing(t, 8, write)
	return <-t.err
}
