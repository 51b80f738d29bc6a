package baresend

import "context"

// A func variable that a goroutine captures lives in a cell. When it is
// assigned once and only ever called, a call through it is a call of its
// literal, and the channel the literal sends on is followed into it.

// probeAllBad shares report among its probes and stops waiting at the
// first failure or when ctx is done: any other failing probe blocks in
// report for good.
func probeAllBad(ctx context.Context, targets []string, probe func(string) error) error {
	failures := make(chan error)
	report := func(err error) {
		failures <- err // want `send on failures \(chan error, unbuffered\) can block forever: probeAllBad can return without receiving it$`
	}
	for _, t := range targets {
		go func() {
			if err := probe(t); err != nil {
				report(err)
			}
		}()
	}
	select {
	case err := <-failures:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// probeAllOK has room for every probe's failure: report cannot block.
func probeAllOK(ctx context.Context, targets []string, probe func(string) error) error {
	failures := make(chan error, len(targets))
	report := func(err error) {
		failures <- err
	}
	for _, t := range targets {
		go func() {
			if err := probe(t); err != nil {
				report(err)
			}
		}()
	}
	select {
	case err := <-failures:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
