package baresend

import (
	"context"
	"errors"
	"io"
)

// A streaming subscriber pulls batches in a loop. Each pull runs on a
// goroutine of its own, so that the loop sees the subscription's context
// while it waits, and answers once: the batch on one channel, or the
// error on another. The loop's select takes from both and from nothing
// else, so whichever channel the answer goes to, it is taken.

type pulledMessage struct{ data []byte }

type messageIterator struct {
	pull func() ([]*pulledMessage, error)
}

func (it *messageIterator) receive() ([]*pulledMessage, error) { return it.pull() }

func receiveBatches(ctx context.Context, it *messageIterator, handle func(*pulledMessage)) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		default:
		}
		msgs := make(chan []*pulledMessage)
		errs := make(chan error)
		go func() {
			select {
			case <-ctx.Done():
				msgs <- nil // ok: the one answer, taken by the select below
				return
			default:
			}
			batch, err := it.receive()
			if errors.Is(err, io.EOF) {
				errs <- nil // ok: the one answer
				return
			}
			if err != nil {
				errs <- err // ok: the one answer
				return
			}
			msgs <- batch // ok: the one answer
		}()
		var batch []*pulledMessage
		select {
		case err := <-errs:
			return err
		case batch = <-msgs:
		}
		for _, m := range batch {
			handle(m)
		}
	}
}

// Near misses. A loop that also gives up on its context leaves the
// answer behind.

func receiveOrCancel(ctx context.Context, it *messageIterator) ([]*pulledMessage, error) {
	msgs := make(chan []*pulledMessage)
	errs := make(chan error)
	go func() {
		batch, err := it.receive()
		if err != nil {
			errs <- err // want `send on errs \(chan error, unbuffered\) can block forever: receiveOrCancel can return without receiving it`
			return
		}
		msgs <- batch // want `send on msgs \(chan \[\]\*pulledMessage, unbuffered\) can block forever: receiveOrCancel can return without receiving it`
	}()
	select {
	case err := <-errs:
		return nil, err
	case batch := <-msgs:
		return batch, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// A pull that reports a partial batch with its error answers twice.

func receivePartial(it *messageIterator) ([]*pulledMessage, error) {
	msgs := make(chan []*pulledMessage)
	errs := make(chan error)
	go func() {
		batch, err := it.receive()
		if err != nil {
			errs <- err // ok: sent first, so the select can only take it
		}
		msgs <- batch // want `send on msgs \(chan \[\]\*pulledMessage, unbuffered\) can block forever: receivePartial can return without receiving it`
	}()
	select {
	case err := <-errs:
		return nil, err
	case batch := <-msgs:
		return batch, nil
	}
}

// A second goroutine that also reports on the error channel is another
// answer the select does not wait for.

func receiveWatched(it *messageIterator, watch func() error) ([]*pulledMessage, error) {
	msgs := make(chan []*pulledMessage)
	errs := make(chan error)
	go func() {
		batch, err := it.receive()
		if err != nil {
			errs <- err // want `send on errs \(chan error, unbuffered\) can block forever: receiveWatched can return without receiving it`
			return
		}
		msgs <- batch // want `send on msgs \(chan \[\]\*pulledMessage, unbuffered\) can block forever: receiveWatched can return without receiving it`
	}()
	go func() {
		errs <- watch() // want `send on errs \(chan error, unbuffered\) can block forever: receiveWatched can return without receiving it`
	}()
	select {
	case err := <-errs:
		return nil, err
	case batch := <-msgs:
		return batch, nil
	}
}

// A caller that may return before it waits for the answer.

func receiveUnlessDry(it *messageIterator, dryRun bool) ([]*pulledMessage, error) {
	msgs := make(chan []*pulledMessage)
	errs := make(chan error)
	go func() {
		batch, err := it.receive()
		if err != nil {
			errs <- err // want `send on errs \(chan error, unbuffered\) can block forever: receiveUnlessDry can return without receiving it`
			return
		}
		msgs <- batch // want `send on msgs \(chan \[\]\*pulledMessage, unbuffered\) can block forever: receiveUnlessDry can return without receiving it`
	}()
	if dryRun {
		return nil, nil
	}
	select {
	case err := <-errs:
		return nil, err
	case batch := <-msgs:
		return batch, nil
	}
}
