package baresend

import (
	"context"
	"time"
)

// A hedged call: it starts one more attempt each time the retry delay
// passes, and returns with the first answer. Its buffer holds one answer
// per attempt, and it starts an attempt only while attempt <
// p.maxAttempts, so no attempt left behind waits. The pass cannot count
// the attempts against the buffer: the finding is audit, and names the
// bound.
type hedgeParams struct {
	maxAttempts int
	retryDelay  time.Duration
	call        func(context.Context) (int, error)
}

type hedgeResult struct {
	value int
	err   error
}

func hedgeCall(ctx context.Context, p hedgeParams) (int, error) {
	ch := make(chan hedgeResult, p.maxAttempts)
	attempt := 0
	delay := time.NewTimer(0)
	defer delay.Stop()
	for {
		select {
		case <-delay.C:
			go func() {
				v, err := p.call(ctx)
				ch <- hedgeResult{v, err} // want `\[audit: its buffer \(cap p\.maxAttempts\) is sized by a value the package also compares with a count, and each goroutine sends it one value: when that count is of the goroutines they all fit, and the pass cannot tell\]$`
			}()
			if attempt++; attempt < p.maxAttempts {
				delay.Reset(p.retryDelay)
			}
		case r := <-ch:
			return r.value, r.err
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// The same call with a buffer the size of an option that is only checked
// to be positive: nothing bounds the attempts by it, and an attempt that
// answers after the caller gave up waits for good once the buffer is
// full.
type hedgeOptions struct {
	queue      int
	retryDelay time.Duration
	call       func(context.Context) (int, error)
}

func newHedgeOptions(queue int) (*hedgeOptions, bool) {
	if queue <= 0 {
		return nil, false
	}
	return &hedgeOptions{queue: queue}, true
}

func hedgeUnbounded(ctx context.Context, o *hedgeOptions) (int, error) {
	ch := make(chan hedgeResult, o.queue)
	delay := time.NewTicker(o.retryDelay)
	defer delay.Stop()
	for {
		select {
		case <-delay.C:
			go func() {
				v, err := o.call(ctx)
				ch <- hedgeResult{v, err} // want `send on ch \(chan hedgeResult, cap o\.queue\) can block forever: hedgeUnbounded can return before receiving every value$`
			}()
		case r := <-ch:
			return r.value, r.err
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// A constant buffer is a queue's size, not a count of senders.
func hedgeConst(ctx context.Context, o *hedgeOptions) (int, error) {
	ch := make(chan hedgeResult, 8)
	delay := time.NewTicker(o.retryDelay)
	defer delay.Stop()
	for {
		select {
		case <-delay.C:
			go func() {
				v, err := o.call(ctx)
				ch <- hedgeResult{v, err} // want `send on ch \(chan hedgeResult, cap 8\) can block forever: hedgeConst can return before receiving every value$`
			}()
		case r := <-ch:
			return r.value, r.err
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// An attempt that reports its progress before its answer sends two values
// a run: the bound on the attempts no longer bounds the values, and the
// proof stands.
func hedgeWithProgress(ctx context.Context, p hedgeParams) (int, error) {
	ch := make(chan hedgeResult, p.maxAttempts)
	attempt := 0
	delay := time.NewTimer(0)
	defer delay.Stop()
	for {
		select {
		case <-delay.C:
			go func() {
				ch <- hedgeResult{} // want `send on ch \(chan hedgeResult, cap p\.maxAttempts\) can block forever: hedgeWithProgress can return without receiving it$`
				v, err := p.call(ctx)
				ch <- hedgeResult{v, err} // want `send on ch \(chan hedgeResult, cap p\.maxAttempts\) can block forever: hedgeWithProgress can return without receiving it$`
			}()
			if attempt++; attempt < p.maxAttempts {
				delay.Reset(p.retryDelay)
			}
		case r := <-ch:
			if r.err != nil || r.value != 0 {
				return r.value, r.err
			}
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
