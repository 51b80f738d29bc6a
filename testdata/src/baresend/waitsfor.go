package baresend

import "sync"

// A lookup queries in parallel every peer the last answer named, each
// query reporting what it heard into a buffer of three that the lookup
// reads one answer a round from. The lookup stops reading once it has
// found what it wants, and waits for the queries still running as it
// returns. A query whose report finds the buffer full
// then waits for good, and so does the lookup, in its wait: the message
// says that, not that the lookup returns.

type peerUpdate struct{ heard []string }

type lookup struct {
	wg    sync.WaitGroup
	ask   func(peer string) []string
	found func([]string) bool
}

func (q *lookup) run(seeds []string) {
	ch := make(chan *peerUpdate, 3)
	defer q.wg.Wait()
	pending := seeds
	for len(pending) > 0 {
		for _, p := range pending {
			q.wg.Add(1)
			go q.query(p, ch)
		}
		pending = nil
		u := <-ch
		if q.found(u.heard) {
			return
		}
		pending = u.heard
	}
}

func (q *lookup) query(p string, ch chan<- *peerUpdate) {
	defer q.wg.Done()
	ch <- &peerUpdate{heard: q.ask(p)} // want `send on ch \(chan<- \*peerUpdate, cap 3\) can block forever: \(\*lookup\)\.run can stop receiving from it and then waits for its senders: a sender left on this send hangs \(\*lookup\)\.run too$`
}

// A lookup that waits only for the queries of its first round leaves the
// later ones uncounted. Both report through one helper, so the lookup can
// return while a later query is still on that helper's send.
type roundLookup struct {
	first sync.WaitGroup
	ask   func(peer string) []string
	found func([]string) bool
}

func (q *roundLookup) run(seeds []string) {
	ch := make(chan *peerUpdate, 3)
	defer q.first.Wait()
	for _, p := range seeds {
		q.first.Add(1)
		go q.firstQuery(p, ch)
	}
	for {
		u := <-ch
		if q.found(u.heard) {
			return
		}
		for _, p := range u.heard {
			go q.report(p, ch)
		}
	}
}

func (q *roundLookup) firstQuery(p string, ch chan<- *peerUpdate) {
	defer q.first.Done()
	q.report(p, ch)
}

func (q *roundLookup) report(p string, ch chan<- *peerUpdate) {
	ch <- &peerUpdate{heard: q.ask(p)} // want `send on ch \(chan<- \*peerUpdate, cap 3\) can block forever: \(\*roundLookup\)\.run can return before receiving every value$`
}

// A lookup that defers its wait only after its first answer can return
// on that answer before the wait is in place.
type hastyLookup struct {
	wg    sync.WaitGroup
	ask   func(peer string) []string
	found func([]string) bool
}

func (q *hastyLookup) run(seeds []string) {
	ch := make(chan *peerUpdate, 3)
	for _, p := range seeds {
		q.wg.Add(1)
		go q.query(p, ch)
	}
	u := <-ch
	if q.found(u.heard) {
		return
	}
	defer q.wg.Wait()
	for range seeds[1:] {
		<-ch
	}
}

func (q *hastyLookup) query(p string, ch chan<- *peerUpdate) {
	defer q.wg.Done()
	ch <- &peerUpdate{heard: q.ask(p)} // want `send on ch \(chan<- \*peerUpdate, cap 3\) can block forever: \(\*hastyLookup\)\.run can return before receiving every value$`
}

// A lookup that waits for another group, or that only marks itself done
// in the group its queries count in, does not wait for the queries: it
// can return while one is still sending.
type looseLookup struct {
	queries, helpers sync.WaitGroup
	ask              func(peer string) []string
}

func (q *looseLookup) waitOther(seeds []string) {
	ch := make(chan *peerUpdate, 3)
	defer q.helpers.Wait()
	for _, p := range seeds {
		q.queries.Add(1)
		go q.otherQuery(p, ch)
	}
	<-ch
}

func (q *looseLookup) otherQuery(p string, ch chan<- *peerUpdate) {
	defer q.queries.Done()
	ch <- &peerUpdate{heard: q.ask(p)} // want `send on ch \(chan<- \*peerUpdate, cap 3\) can block forever: \(\*looseLookup\)\.waitOther can return before receiving every value$`
}

func (q *looseLookup) counted(seeds []string) {
	ch := make(chan *peerUpdate, 3)
	defer q.queries.Done()
	for _, p := range seeds {
		q.queries.Add(1)
		go q.countedQuery(p, ch)
	}
	<-ch
}

func (q *looseLookup) countedQuery(p string, ch chan<- *peerUpdate) {
	defer q.queries.Done()
	ch <- &peerUpdate{heard: q.ask(p)} // want `send on ch \(chan<- \*peerUpdate, cap 3\) can block forever: \(\*looseLookup\)\.counted can return before receiving every value$`
}

// A lookup that also closes the channel as it returns closes it before
// its wait runs (the last deferred runs first): a query left on its send
// panics instead of hanging the lookup.
type closingLookup struct {
	wg  sync.WaitGroup
	ask func(peer string) []string
}

func (q *closingLookup) run(seeds []string) {
	ch := make(chan *peerUpdate, 3)
	defer q.wg.Wait()
	defer close(ch)
	for _, p := range seeds {
		q.wg.Add(1)
		go q.query(p, ch)
	}
	<-ch
}

func (q *closingLookup) query(p string, ch chan<- *peerUpdate) {
	defer q.wg.Done()
	ch <- &peerUpdate{heard: q.ask(p)} // want `\(\*closingLookup\)\.run can return before receiving every value, and closes it as it returns`
}

// Deferred the other way round, the wait runs first: a query left on its
// send hangs the lookup, which never reaches the close.
type waitingLookup struct {
	wg  sync.WaitGroup
	ask func(peer string) []string
}

func (q *waitingLookup) run(seeds []string) {
	ch := make(chan *peerUpdate, 3)
	defer close(ch)
	defer q.wg.Wait()
	for _, p := range seeds {
		q.wg.Add(1)
		go q.query(p, ch)
	}
	<-ch
}

func (q *waitingLookup) query(p string, ch chan<- *peerUpdate) {
	defer q.wg.Done()
	ch <- &peerUpdate{heard: q.ask(p)} // want `\(\*waitingLookup\)\.run can stop receiving from it and then waits for its senders: a sender left on this send hangs \(\*waitingLookup\)\.run too$`
}
