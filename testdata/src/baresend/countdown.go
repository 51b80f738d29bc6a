package baresend

import "context"

// A join that counts its workers down receives one value per worker
// before it returns, even when it is cancelled: each worker's last send is
// taken.

func runAllOK(ctx context.Context, jobs []func(context.Context) error) error {
	errc := make(chan error)
	for _, job := range jobs {
		go func() {
			errc <- job(ctx) // ok: the owner counts every worker down
		}()
	}
	var first error
	active := len(jobs)
	for {
		select {
		case err := <-errc:
			if first == nil {
				first = err
			}
			active--
			if active == 0 {
				return first
			}
		case <-ctx.Done():
			ctx = context.Background() // the jobs see the cancel and finish
		}
	}
}

func runAllOneShortBad(ctx context.Context, jobs []func(context.Context) error) error {
	errc := make(chan error)
	for _, job := range jobs {
		go func() {
			errc <- job(ctx) // want `send on errc \(chan error, unbuffered\) can block forever: runAllOneShortBad can return before receiving every value`
		}()
	}
	active := len(jobs) - 1
	for {
		select {
		case <-errc:
			active--
			if active == 0 {
				return nil
			}
		case <-ctx.Done():
		}
	}
}
