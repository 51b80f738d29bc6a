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

// A pool set-up starts one connector per new host and counts them as it
// goes, then takes one pool per connector started.
type hostPool struct{ host string }

func connectAllOK(hosts []string, known map[string]bool, connect func(string) *hostPool) []*hostPool {
	pools := make(chan *hostPool)
	created := 0
	for _, host := range hosts {
		if known[host] {
			continue
		}
		created++
		go func() {
			pools <- connect(host) // ok: one pool is taken per connector counted
		}()
	}
	var out []*hostPool
	for created > 0 {
		out = append(out, <-pools)
		created--
	}
	return out
}

// connectAllMiscountedBad counts only the new hosts but starts a connector
// for every host: it takes fewer pools than there are connectors.
func connectAllMiscountedBad(hosts []string, known map[string]bool, connect func(string) *hostPool) []*hostPool {
	pools := make(chan *hostPool)
	created := 0
	for _, host := range hosts {
		if !known[host] {
			created++
		}
		go func() {
			pools <- connect(host) // want `send on pools \(chan \*hostPool, unbuffered\) can block forever: connectAllMiscountedBad can return before receiving every value`
		}()
	}
	var out []*hostPool
	for created > 0 {
		out = append(out, <-pools)
		created--
	}
	return out
}

// connectAllEarlyBad counts right, but gives up at the first failed pool.
func connectAllEarlyBad(hosts []string, connect func(string) *hostPool) []*hostPool {
	pools := make(chan *hostPool)
	created := 0
	for _, host := range hosts {
		created++
		go func() {
			pools <- connect(host) // want `send on pools \(chan \*hostPool, unbuffered\) can block forever: connectAllEarlyBad can return before receiving every value`
		}()
	}
	var out []*hostPool
	for created > 0 {
		p := <-pools
		if p == nil {
			return out
		}
		out = append(out, p)
		created--
	}
	return out
}
