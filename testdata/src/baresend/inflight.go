package baresend

import "context"

// A crawler hands the peers it has still to visit to a pool of workers and
// counts the visits in flight: one more for each peer a worker took, one
// fewer for each report it received. It leaves its loop only when nothing
// is left to hand out and nothing is in flight, and each worker reports
// once per peer it took, so every report finds the crawler still reading.

type visitReport struct {
	peer  string
	found []string
}

func visitPeer(peer string) visitReport { return visitReport{peer: peer} }

func crawl(seeds []string, workers int) map[string]bool {
	jobs := make(chan string, 1)
	reports := make(chan visitReport, 1)
	for range workers {
		go func() {
			for peer := range jobs {
				reports <- visitPeer(peer) // one report per peer taken: quiet
			}
		}()
	}
	defer close(jobs)

	seen := map[string]bool{}
	todo := append([]string(nil), seeds...)
	inflight := 0
	for len(todo) > 0 || inflight > 0 {
		var jobCh chan string
		var next string
		if len(todo) > 0 {
			jobCh, next = jobs, todo[0]
		}
		select {
		case rep := <-reports:
			for _, p := range rep.found {
				if !seen[p] {
					seen[p] = true
					todo = append(todo, p)
				}
			}
			inflight--
		case jobCh <- next:
			inflight++
			todo = todo[1:]
		}
	}
	return seen
}

// crawlChatty's workers also report progress before the visit: two
// reports for one peer, so the last report of a run can find the crawler
// gone.
func crawlChatty(seeds []string, workers int) int {
	jobs := make(chan string, 1)
	reports := make(chan visitReport, 1)
	for range workers {
		go func() {
			for peer := range jobs {
				if peer == "" {
					reports <- visitReport{peer: "?"} // want `send on reports \(chan visitReport, cap 1\) can block forever`
				}
				reports <- visitPeer(peer) // want `send on reports \(chan visitReport, cap 1\) can block forever`
			}
		}()
	}
	defer close(jobs)

	todo := append([]string(nil), seeds...)
	inflight, visited := 0, 0
	for len(todo) > 0 || inflight > 0 {
		var jobCh chan string
		var next string
		if len(todo) > 0 {
			jobCh, next = jobs, todo[0]
		}
		select {
		case <-reports:
			visited++
			inflight--
		case jobCh <- next:
			inflight++
			todo = todo[1:]
		}
	}
	return visited
}

// crawlUntil gives up when its context is done, with visits still in
// flight: their reports wait for good.
func crawlUntil(ctx context.Context, seeds []string, workers int) int {
	jobs := make(chan string, 1)
	reports := make(chan visitReport, 1)
	for range workers {
		go func() {
			for peer := range jobs {
				reports <- visitPeer(peer) // want `send on reports \(chan visitReport, cap 1\) can block forever`
			}
		}()
	}
	defer close(jobs)

	todo := append([]string(nil), seeds...)
	inflight, visited := 0, 0
	for len(todo) > 0 || inflight > 0 {
		var jobCh chan string
		var next string
		if len(todo) > 0 {
			jobCh, next = jobs, todo[0]
		}
		select {
		case <-reports:
			visited++
			inflight--
		case jobCh <- next:
			inflight++
			todo = todo[1:]
		case <-ctx.Done():
			return visited
		}
	}
	return visited
}

// crawlImpatient writes off a visit when a tick passes without a report:
// the count falls without a receive, so the crawler can leave while a slow
// worker still has a report to send.
func crawlImpatient(seeds []string, workers int, tick <-chan struct{}) int {
	jobs := make(chan string, 1)
	reports := make(chan visitReport, 1)
	for range workers {
		go func() {
			for peer := range jobs {
				reports <- visitPeer(peer) // want `send on reports \(chan visitReport, cap 1\) can block forever`
			}
		}()
	}
	defer close(jobs)

	todo := append([]string(nil), seeds...)
	inflight, visited := 0, 0
	for len(todo) > 0 || inflight > 0 {
		var jobCh chan string
		var next string
		if len(todo) > 0 {
			jobCh, next = jobs, todo[0]
		}
		select {
		case <-reports:
			visited++
			inflight--
		case jobCh <- next:
			inflight++
			todo = todo[1:]
		case <-tick:
			inflight--
		}
	}
	return visited
}
