package baresend

// A transaction committer writes its batches in parallel. The caller makes
// a result channel with a slot per batch and hands it, with the batches, to
// a dispatcher goroutine that starts one writer per batch, as the rate
// limiter lets it; the caller returns on the first error. Every writer
// sends one result, and there are no more writers than batches, so each
// finds a slot whether anyone still reads or not.

type commitBatch struct{ keys []string }

type batchCommitter struct {
	limit chan struct{}
}

func (c *batchCommitter) dispatch(exit chan struct{}, results chan error, batches []commitBatch, write func(commitBatch) error) {
	for _, b := range batches {
		select {
		case c.limit <- struct{}{}:
		case <-exit:
			return
		}
		go func() {
			defer func() { <-c.limit }()
			results <- write(b) // ok: one result per batch, a slot per batch
		}()
	}
}

func (c *batchCommitter) commit(batches []commitBatch, write func(commitBatch) error) error {
	results := make(chan error, len(batches))
	exit := make(chan struct{})
	defer close(exit)
	go c.dispatch(exit, results, batches, write)
	for range batches {
		if err := <-results; err != nil {
			return err
		}
	}
	return nil
}

// A dispatcher that also writes the secondary keys of each batch sends two
// results per batch into a slot each.

func (c *batchCommitter) dispatchBoth(exit chan struct{}, results chan error, batches []commitBatch, write func(commitBatch) error) {
	for _, b := range batches {
		select {
		case c.limit <- struct{}{}:
		case <-exit:
			return
		}
		go func() {
			defer func() { <-c.limit }()
			results <- write(b)                             // want `send on results \(chan error, cap len\(batches\)\) can block forever: \(\*batchCommitter\)\.commitBoth can return before receiving every value`
			results <- write(commitBatch{keys: b.keys[1:]}) // want `send on results \(chan error, cap len\(batches\)\) can block forever: \(\*batchCommitter\)\.commitBoth can return before receiving every value`
		}()
	}
}

func (c *batchCommitter) commitBoth(batches []commitBatch, write func(commitBatch) error) error {
	results := make(chan error, len(batches))
	exit := make(chan struct{})
	defer close(exit)
	go c.dispatchBoth(exit, results, batches, write)
	for range batches {
		if err := <-results; err != nil {
			return err
		}
	}
	return nil
}

// A dispatcher handed the batches and the retries walks more than the
// slots were made for.

func (c *batchCommitter) commitRetrying(batches, retries []commitBatch, write func(commitBatch) error) error {
	results := make(chan error, len(batches))
	exit := make(chan struct{})
	defer close(exit)
	go c.dispatchRetries(exit, results, append(batches, retries...), write)
	for range batches {
		if err := <-results; err != nil {
			return err
		}
	}
	return nil
}

func (c *batchCommitter) dispatchRetries(exit chan struct{}, results chan error, batches []commitBatch, write func(commitBatch) error) {
	for _, b := range batches {
		select {
		case c.limit <- struct{}{}:
		case <-exit:
			return
		}
		go func() {
			defer func() { <-c.limit }()
			results <- write(b) // want `send on results \(chan error, cap len\(batches\)\) can block forever: \(\*batchCommitter\)\.commitRetrying can return before receiving every value`
		}()
	}
}
