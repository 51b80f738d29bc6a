package baresend

import "fmt"

// A job runner starts a goroutine per job, which reports its result on a
// buffered channel and, from a deferred closure that recovers, reports a
// panic on the same channel. A job sends one value either way: the
// closure sends only while the job panics, and a job that reached its
// last send returns with nothing left that can panic. It sends two when
// something that can panic follows its send, or when a call deferred
// after the closure can panic once the job has sent.

func runJobOK() error {
	errc := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				errc <- fmt.Errorf("job panicked: %v", r) // ok: only on a panic, before any other send
			}
		}()
		errc <- work() // ok: the one value, whichever way the job ends
	}()
	return nil
}

func runJobsOK(jobs []func() error) error {
	errc := make(chan error, len(jobs))
	for _, job := range jobs {
		go func() {
			defer func() {
				if r := recover(); r != nil {
					errc <- fmt.Errorf("job panicked: %v", r) // ok: one value per job
				}
			}()
			errc <- job() // ok: one value per job
		}()
	}
	return <-errc
}

func runJobThenCleanBad(clean func()) error {
	errc := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				errc <- fmt.Errorf("job panicked: %v", r) // want `send on errc \(chan error, cap 1\) can block forever: nothing receives from it`
			}
		}()
		errc <- work() // want `send on errc \(chan error, cap 1\) can block forever: nothing receives from it`
		clean() // may panic after the send: the closure sends again
	}()
	return nil
}

func runJobDeferredCleanBad(clean func()) error {
	errc := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				errc <- fmt.Errorf("job panicked: %v", r) // want `send on errc \(chan error, cap 1\) can block forever: nothing receives from it`
			}
		}()
		defer clean() // runs first, and may panic after the send
		errc <- work() // want `send on errc \(chan error, cap 1\) can block forever: nothing receives from it`
	}()
	return nil
}

func runJobAlwaysReportsBad() error {
	errc := make(chan error, 1)
	go func() {
		defer func() {
			r := recover()
			errc <- fmt.Errorf("job ended: %v", r) // want `send on errc \(chan error, cap 1\) can block forever: nothing receives from it`
		}()
		errc <- work() // want `send on errc \(chan error, cap 1\) can block forever: nothing receives from it`
	}()
	return nil
}
