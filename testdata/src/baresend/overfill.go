package baresend

import (
	"context"
	"errors"
)

// A light client checks a new header against every witness at once: one
// goroutine per witness, each meant to report once on errc, which holds
// one report per witness. The client returns on the first conflict
// without waiting for the rest, which is fine while each goroutine
// reports once. The goroutine below forgets a return after a conflict
// and goes on to report success too: a second value, which takes another
// witness's slot. The sends that report once block only after that
// happened; the finding that matters is the send that can be the second.

var (
	errNoResponse = errors.New("witness did not respond")
	errConflict   = errors.New("conflicting headers")
)

type witness struct{ id int }

func (w *witness) header(ctx context.Context) ([]byte, error) { return nil, ctx.Err() }

func sameHash(a, b []byte) bool { return len(a) == len(b) }

func compareWithWitness(ctx context.Context, errc chan error, trusted []byte, w *witness) {
	h, err := w.header(ctx)
	switch {
	case errors.Is(err, context.Canceled):
		errc <- err // want `\[audit: the buffer holds a value from every run and this run sends only this one: it blocks only once a run of compareWithWitness that sends more took its slot\]`
		return
	case err != nil:
		errc <- errNoResponse // want `\[audit: the buffer holds a value from every run`
		return
	}
	if !sameHash(h, trusted) {
		errc <- errConflict // want `send on errc \(chan error, cap len\(witnesses\)\) can block forever: detectDivergence can return before receiving every value$`
	}
	errc <- nil // want `send on errc \(chan error, cap len\(witnesses\)\) can block forever: detectDivergence can return before receiving every value$`
}

func detectDivergence(ctx context.Context, trusted []byte, witnesses []*witness) error {
	errc := make(chan error, len(witnesses))
	for _, w := range witnesses {
		go compareWithWitness(ctx, errc, trusted, w)
	}
	for range witnesses {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// compareFixed returns after the conflict: every run sends once, and the
// buffer has room for all of them.
func compareFixed(ctx context.Context, errc chan error, trusted []byte, w *witness) {
	h, err := w.header(ctx)
	if err != nil {
		errc <- errNoResponse
		return
	}
	if !sameHash(h, trusted) {
		errc <- errConflict
		return
	}
	errc <- nil
}

func detectDivergenceFixed(ctx context.Context, trusted []byte, witnesses []*witness) error {
	errc := make(chan error, len(witnesses))
	for _, w := range witnesses {
		go compareFixed(ctx, errc, trusted, w)
	}
	for range witnesses {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// compareHalf reports once per run into a buffer of half as many: each
// send can block on its own.
func compareHalf(ctx context.Context, errc chan error, w *witness) {
	if _, err := w.header(ctx); err != nil {
		errc <- err // want `send on errc \(chan error, cap len\(witnesses\) / 2\) can block forever: detectHalf can return before receiving every value$`
		return
	}
	errc <- nil // want `send on errc \(chan error, cap len\(witnesses\) / 2\) can block forever: detectHalf can return before receiving every value$`
}

func detectHalf(ctx context.Context, witnesses []*witness) error {
	errc := make(chan error, len(witnesses)/2)
	for _, w := range witnesses {
		go compareHalf(ctx, errc, w)
	}
	for range witnesses {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// compareHalfOver forgets the same return, into a buffer of half as many:
// the sends that report once can block on their own, and say so.
func compareHalfOver(ctx context.Context, errc chan error, trusted []byte, w *witness) {
	h, err := w.header(ctx)
	if err != nil {
		errc <- errNoResponse // want `send on errc \(chan error, cap len\(witnesses\) / 2\) can block forever: detectHalfOver can return before receiving every value$`
		return
	}
	if !sameHash(h, trusted) {
		errc <- errConflict // want `send on errc \(chan error, cap len\(witnesses\) / 2\) can block forever: detectHalfOver can return before receiving every value$`
	}
	errc <- nil // want `send on errc \(chan error, cap len\(witnesses\) / 2\) can block forever: detectHalfOver can return before receiving every value$`
}

func detectHalfOver(ctx context.Context, trusted []byte, witnesses []*witness) error {
	errc := make(chan error, len(witnesses)/2)
	for _, w := range witnesses {
		go compareHalfOver(ctx, errc, trusted, w)
	}
	for range witnesses {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// RemoveAll returns a channel of results that a goroutine fills batch by
// batch through a helper, which reports one error for a batch it cannot
// read, or one result per object. The early error is the only send of
// its call, but the goroutine calls the helper once per batch: a caller
// that stops reading leaves the next batch's report blocked, and no other
// run has to take a slot first.

var errEmptyBatch = errors.New("empty batch")

type removeResult struct {
	name string
	err  error
}

func RemoveAll(ctx context.Context, batches [][]string) <-chan removeResult {
	results := make(chan removeResult, 1)
	go func() {
		defer close(results)
		for _, b := range batches {
			if ctx.Err() != nil {
				select {
				case results <- removeResult{err: ctx.Err()}:
				case <-ctx.Done():
				}
				return
			}
			reportRemoved(b, results)
		}
	}()
	return results
}

func reportRemoved(batch []string, results chan<- removeResult) {
	if len(batch) == 0 {
		results <- removeResult{err: errEmptyBatch} // want `send on results \(chan<- removeResult, cap 1\) can block forever: its receiver is the caller RemoveAll returns it to, who can stop reading \(the goroutine's other send on it gives up then\), and this send has no liveness case \(ctx\.Done\(\), a stop channel\) to give up$`
		return
	}
	for _, name := range batch {
		results <- removeResult{name: name} // want `send on results \(chan<- removeResult, cap 1\) can block forever: its receiver is the caller RemoveAll returns it to`
	}
}
