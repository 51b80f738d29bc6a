package baresend

import (
	"context"
	"time"
)

// A retrying client runs each attempt on a goroutine of its own, so that
// it can give up on its context while an attempt is still running. It
// starts the next attempt only once the last one has answered, and each
// attempt answers once, into a buffer of one: when the caller's context
// ends, the one attempt still running finds room for its answer.

type attempt func(ctx context.Context) (string, error)

func retryUntilDone(ctx context.Context, try attempt, keepTrying func(error) bool) (string, error) {
	results := make(chan string, 1)
	errs := make(chan error, 1)
	for {
		go func() {
			r, err := try(ctx)
			if err != nil {
				errs <- err
				return
			}
			results <- r
		}()
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case r := <-results:
			return r, nil
		case err := <-errs:
			if !keepTrying(err) {
				return "", err
			}
		}
	}
}

// hedged starts another attempt whenever the last is slow, without
// waiting for its answer: attempts pile up, and those still running when
// the caller gives up find the buffer full.
func hedged(ctx context.Context, try attempt, delay time.Duration) (string, error) {
	results := make(chan string, 1)
	for {
		go func() {
			r, _ := try(ctx)
			results <- r // want `send on results \(chan string, cap 1\) can block forever: hedged can return before receiving every value`
		}()
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case r := <-results:
			return r, nil
		case <-time.After(delay):
		}
	}
}

// chatty's attempts report progress before their answer: one receive
// a round leaves a value behind each time.
func chatty(ctx context.Context, try attempt) (string, error) {
	events := make(chan string, 1)
	for {
		go func() {
			events <- "started" // want `send on events \(chan string, cap 1\) can block forever: chatty can return before receiving every value`
			r, _ := try(ctx)
			events <- r // want `send on events \(chan string, cap 1\) can block forever: chatty can return before receiving every value`
		}()
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case e := <-events:
			if e != "started" {
				return e, nil
			}
		}
	}
}

// unbufferedRetry waits for each attempt too, but with no buffer the one
// still running when the caller gives up has nowhere to put its answer.
func unbufferedRetry(ctx context.Context, try attempt) error {
	errs := make(chan error)
	for {
		go func() {
			_, err := try(ctx)
			errs <- err // want `send on errs \(chan error, unbuffered\) can block forever: unbufferedRetry can return before receiving every value`
		}()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-errs:
			if err == nil {
				return nil
			}
		}
	}
}

// resubscribe runs each subscription attempt on a goroutine of its own,
// with no buffer for its answer, and takes that answer on every way out
// as well as on every way round: when unsubscribed it cancels the attempt
// and still waits for it, so no attempt is left holding its answer.
func resubscribe(ctx context.Context, try attempt, unsub <-chan struct{}, backoff func() bool) string {
	subscribed := make(chan error)
	for {
		var sub string
		tryCtx, cancel := context.WithCancel(ctx)
		go func() {
			s, err := try(tryCtx)
			sub = s
			subscribed <- err // ok: taken on every way out and every way round
		}()
		select {
		case err := <-subscribed:
			cancel()
			if err == nil {
				return sub
			}
			if backoff() {
				return ""
			}
		case <-unsub:
			cancel()
			<-subscribed // do not leak the attempt
			return ""
		}
	}
}

// resubscribeSplit hands a subscription over with no buffer, and a failure
// into a buffer of one, and on the way out waits only for a failure: a
// failure finds room whenever it comes, but an attempt that succeeds
// after the unsubscribe has nowhere to put its subscription.
func resubscribeSplit(ctx context.Context, try attempt, unsub <-chan struct{}) string {
	subs := make(chan string)
	errs := make(chan error, 1)
	for {
		tryCtx, cancel := context.WithCancel(ctx)
		go func() {
			s, err := try(tryCtx)
			if err != nil {
				errs <- err // ok: one attempt at a time, into a buffer of one
				return
			}
			subs <- s // want `send on subs \(chan string, unbuffered\) can block forever: resubscribeSplit can return`
		}()
		select {
		case s := <-subs:
			cancel()
			return s
		case <-errs:
			cancel()
		case <-unsub:
			cancel()
			<-errs // waits for a failure only
			return ""
		}
	}
}
