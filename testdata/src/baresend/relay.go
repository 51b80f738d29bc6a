package baresend

import "sync"

// A scrape configuration turns each discovered target into a scrape job
// on a pool of workers: the targets go into a work channel, each worker
// ranges over it and answers every target it takes with one result, and
// the result channel has a slot per target. However many workers run,
// there are no more results than targets, so a caller that stops reading
// at the first error strands nobody.

type target struct{ addr string }

type scrapeJob struct {
	addr string
	err  error
}

func buildJob(t target) scrapeJob {
	if t.addr == "" {
		return scrapeJob{err: errBadTarget}
	}
	return scrapeJob{addr: t.addr}
}

var errBadTarget = errorString("target without an address")

func buildJobs(targets []target, workers int) ([]scrapeJob, error) {
	results := make(chan scrapeJob, len(targets))
	work := make(chan target, workers)
	for range workers {
		go func() {
			for t := range work {
				results <- buildJob(t) // ok: one result per target taken, a slot per target
			}
		}()
	}
	go func() {
		for _, t := range targets {
			work <- t
		}
		close(work)
	}()
	var jobs []scrapeJob
	for range targets {
		j := <-results
		if j.err != nil {
			return nil, j.err
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// A backup runs its parts per path: the paths of a map go into the work
// channel, and a worker that sees the stop channel closed quits without
// answering the rest. Each answer still takes one path.

type backupPart struct{ path string }

func uploadPerPath(perPath map[string][]backupPart, workers int, upload func([]backupPart) error) error {
	results := make(chan error, len(perPath))
	work := make(chan []backupPart, len(perPath))
	stop := make(chan struct{})
	for range workers {
		go func() {
			for parts := range work {
				select {
				case <-stop:
					return
				default:
				}
				if len(parts) == 0 {
					results <- nil // ok: the one answer of this path
					continue
				}
				results <- upload(parts) // ok: the one answer of this path
			}
		}()
	}
	for _, parts := range perPath {
		work <- parts
	}
	close(work)
	for range perPath {
		if err := <-results; err != nil {
			close(stop)
			return err
		}
	}
	return nil
}

// Near misses. A worker that answers a target twice (a retry after a
// failure) sends up to twice as many results as there are slots.

func buildJobsRetrying(targets []target, workers int) ([]scrapeJob, error) {
	results := make(chan scrapeJob, len(targets))
	work := make(chan target, workers)
	for range workers {
		go func() {
			for t := range work {
				j := buildJob(t)
				if j.err != nil {
					results <- j                        // want `send on results \(chan scrapeJob, cap len\(targets\)\) can block forever: buildJobsRetrying can return before receiving every value`
					j = buildJob(target{addr: "retry"}) // a second answer for the same target
				}
				results <- j // want `send on results \(chan scrapeJob, cap len\(targets\)\) can block forever: buildJobsRetrying can return before receiving every value`
			}
		}()
	}
	for _, t := range targets {
		work <- t
	}
	close(work)
	for range targets {
		j := <-results
		if j.err != nil {
			return nil, j.err
		}
	}
	return nil, nil
}

// A worker that answers each piece of a target, in a loop of its own,
// sends more than one result per target taken.

func buildPieces(targets []target, workers int, pieces int) error {
	results := make(chan error, len(targets))
	work := make(chan target, workers)
	for range workers {
		go func() {
			for t := range work {
				for range pieces {
					results <- buildJob(t).err // want `send on results \(chan error, cap len\(targets\)\) can block forever: buildPieces can return before receiving every value`
				}
			}
		}()
	}
	for _, t := range targets {
		work <- t
	}
	close(work)
	for range targets {
		if err := <-results; err != nil {
			return err
		}
	}
	return nil
}

// Targets fed twice, once per round, are twice the slots.

func buildTwoRounds(targets []target, workers int) error {
	results := make(chan error, len(targets))
	work := make(chan target, workers)
	for range workers {
		go func() {
			for t := range work {
				results <- buildJob(t).err // want `send on results \(chan error, cap len\(targets\)\) can block forever: buildTwoRounds can return before receiving every value`
			}
		}()
	}
	for range 2 {
		for _, t := range targets {
			work <- t
		}
	}
	close(work)
	for range targets {
		if err := <-results; err != nil {
			return err
		}
	}
	return nil
}

// A work channel handed to a caller can be fed by code out of sight.

func buildShared(targets []target, workers int) (chan<- target, error) {
	results := make(chan error, len(targets))
	work := make(chan target, workers)
	for range workers {
		go func() {
			for t := range work {
				results <- buildJob(t).err // want `send on results \(chan error, cap len\(targets\)\) can block forever: buildShared can return before receiving every value`
			}
		}()
	}
	for _, t := range targets {
		work <- t
	}
	for range targets {
		if err := <-results; err != nil {
			return work, err
		}
	}
	return work, nil
}

// A cloud discovery enriches each virtual machine with its network
// interfaces on a pool larger than the result buffer. The buffer does not
// hold every answer, but the caller takes one answer per machine, with no
// way out of that loop, so every answer is taken.

type virtualMachine struct{ ifaces []string }

func enrichMachines(vms []virtualMachine, workers int, enrich func(*virtualMachine) error) error {
	work := make(chan *virtualMachine, workers)
	results := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for vm := range work {
				results <- enrich(vm) // ok: one answer per machine, and the caller takes one per machine
			}
		})
	}
	wg.Go(func() {
		for i := range vms {
			work <- &vms[i]
		}
		close(work)
	})
	var first error
	for range vms {
		if err := <-results; err != nil && first == nil {
			first = err
		}
	}
	wg.Wait()
	return first
}

// Near miss: a caller that returns at the first error leaves the answers
// the buffer cannot hold.

func enrichUntilError(vms []virtualMachine, workers int, enrich func(*virtualMachine) error) error {
	work := make(chan *virtualMachine, workers)
	results := make(chan error, workers)
	for range workers {
		go func() {
			for vm := range work {
				results <- enrich(vm) // want `send on results \(chan error, cap workers\) can block forever: enrichUntilError can return before receiving every value`
			}
		}()
	}
	go func() {
		for i := range vms {
			work <- &vms[i]
		}
		close(work)
	}()
	for range vms {
		if err := <-results; err != nil {
			return err
		}
	}
	return nil
}

// Near miss: a caller that may return before it starts taking answers.

func enrichIfAny(vms []virtualMachine, workers int, enrich func(*virtualMachine) error, dryRun bool) error {
	work := make(chan *virtualMachine, workers)
	results := make(chan error, workers)
	for range workers {
		go func() {
			for vm := range work {
				results <- enrich(vm) // want `send on results \(chan error, cap workers\) can block forever: enrichIfAny can return without receiving it`
			}
		}()
	}
	go func() {
		for i := range vms {
			work <- &vms[i]
		}
		close(work)
	}()
	if dryRun {
		return nil
	}
	var first error
	for range vms {
		if err := <-results; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Near miss: a feeder started once per region walks every machine each
// time, more answers than the caller takes.

func enrichPerRegion(vms []virtualMachine, regions, workers int, enrich func(*virtualMachine) error) error {
	work := make(chan *virtualMachine, workers)
	results := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for vm := range work {
				results <- enrich(vm) // want `send on results \(chan error, cap workers\) can block forever: enrichPerRegion can return before receiving every value`
			}
		})
	}
	for range regions {
		wg.Go(func() {
			for i := range vms {
				work <- &vms[i]
			}
		})
	}
	var first error
	for range vms {
		if err := <-results; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Near miss: a caller whose loop counts from one takes one answer fewer
// than there are machines.

func enrichAllButOne(vms []virtualMachine, workers int, enrich func(*virtualMachine) error) error {
	work := make(chan *virtualMachine, workers)
	results := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for vm := range work {
				results <- enrich(vm) // want `send on results \(chan error, cap workers\) can block forever: enrichAllButOne can return before receiving every value`
			}
		})
	}
	wg.Go(func() {
		for i := range vms {
			work <- &vms[i]
		}
		close(work)
	})
	var first error
	for i := 1; i < len(vms); i++ {
		if err := <-results; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Near miss: a caller that steps two machines at a time takes half.

func enrichHalf(vms []virtualMachine, workers int, enrich func(*virtualMachine) error) error {
	work := make(chan *virtualMachine, workers)
	results := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for vm := range work {
				results <- enrich(vm) // want `send on results \(chan error, cap workers\) can block forever: enrichHalf can return before receiving every value`
			}
		})
	}
	wg.Go(func() {
		for i := range vms {
			work <- &vms[i]
		}
		close(work)
	})
	var first error
	for i := 0; i < len(vms); i += 2 {
		if err := <-results; err != nil && first == nil {
			first = err
		}
	}
	return first
}
