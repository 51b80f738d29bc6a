package baresend

// A server whose run loop starts one goroutine per peer, and, once it is
// told to quit, keeps taking the peers' last reports until none is left:
// each peer goroutine's one report finds the loop. The pass cannot prove
// that every peer is in the map, so the send is audited, labelled with
// the drain.

type peer struct{ id int }

type peerServer struct {
	quit    chan struct{}
	addpeer chan *peer
	delpeer chan int
}

func startPeerServer() *peerServer {
	s := &peerServer{quit: make(chan struct{}), addpeer: make(chan *peer), delpeer: make(chan int)}
	go s.run()
	return s
}

func (s *peerServer) runPeer(p *peer) {
	s.delpeer <- p.id // want `send on s\.delpeer \(chan int, unbuffered\) can block forever: .*\[audit: its receiver \(\*peerServer\)\.run, once it stops, keeps receiving one value for each entry of peers: a send blocks only if its sender has no entry there\]$`
}

func (s *peerServer) run() {
	peers := make(map[int]*peer)
running:
	for {
		select {
		case <-s.quit:
			break running
		case p := <-s.addpeer:
			peers[p.id] = p
			go s.runPeer(p)
		case id := <-s.delpeer:
			delete(peers, id)
		}
	}
	for len(peers) > 0 {
		id := <-s.delpeer
		delete(peers, id)
	}
}

// The dial scheduler walks its set of dials in flight instead, one
// receive for each.
type dialer struct {
	quit   chan struct{}
	start  chan int
	doneCh chan int
}

func startDialer() *dialer {
	d := &dialer{quit: make(chan struct{}), start: make(chan int), doneCh: make(chan int)}
	go d.loop()
	return d
}

func (d *dialer) dial(id int) {
	d.doneCh <- id // want `send on d\.doneCh \(chan int, unbuffered\) can block forever: .*\[audit: its receiver \(\*dialer\)\.loop, once it stops, keeps receiving one value for each entry of dialing: a send blocks only if its sender has no entry there\]$`
}

func (d *dialer) loop() {
	dialing := make(map[int]bool)
	for {
		select {
		case <-d.quit:
			for range dialing {
				<-d.doneCh
			}
			return
		case id := <-d.start:
			dialing[id] = true
			go d.dial(id)
		case id := <-d.doneCh:
			delete(dialing, id)
		}
	}
}

// A loop with a way out that skips the drain leaves a peer's report
// waiting for good: reported.
type hastyServer struct {
	quit    chan struct{}
	abort   chan struct{}
	addpeer chan *peer
	delpeer chan int
}

func startHastyServer() *hastyServer {
	s := &hastyServer{quit: make(chan struct{}), abort: make(chan struct{}), addpeer: make(chan *peer), delpeer: make(chan int)}
	go s.run()
	return s
}

func (s *hastyServer) runPeer(p *peer) {
	s.delpeer <- p.id // want `send on s\.delpeer \(chan int, unbuffered\) can block forever: its receiver \(\*hastyServer\)\.run can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
}

func (s *hastyServer) run() {
	peers := make(map[int]*peer)
running:
	for {
		select {
		case <-s.quit:
			break running
		case <-s.abort:
			return // the peers still running are never taken
		case p := <-s.addpeer:
			peers[p.id] = p
			go s.runPeer(p)
		case id := <-s.delpeer:
			delete(peers, id)
		}
	}
	for len(peers) > 0 {
		id := <-s.delpeer
		delete(peers, id)
	}
}

// A protocol handler counts its running peer handlers instead: each
// handler announces itself on start and reports on finish, and once told
// to quit, the tracker takes one report for each handler it counted. A
// tracker that counts but returns without that drain leaves the last
// reports waiting: reported, as is one that stops one report short or
// forgets its count after the first.
type handlerTracker struct {
	quit  chan struct{}
	start chan struct{}
	done  chan struct{}
}

func startHandlerTracker() *handlerTracker {
	t := &handlerTracker{quit: make(chan struct{}), start: make(chan struct{}), done: make(chan struct{})}
	go t.track()
	return t
}

func (t *handlerTracker) inc() bool {
	select {
	case t.start <- struct{}{}:
		return true
	case <-t.quit:
		return false
	}
}

func (t *handlerTracker) dec() {
	t.done <- struct{}{} // want `send on t\.done \(chan struct\{\}, unbuffered\) can block forever: .*\[audit: its receiver \(\*handlerTracker\)\.track, once it stops, keeps receiving one value for each sender counted in active: a send blocks only if its sender was not counted\]$`
}

func (t *handlerTracker) track() {
	var active int
	for {
		select {
		case <-t.start:
			active++
		case <-t.done:
			active--
		case <-t.quit:
			for ; active > 0; active-- {
				<-t.done
			}
			return
		}
	}
}

type hastyTracker struct {
	quit  chan struct{}
	start chan struct{}
	done  chan struct{}
}

func startHastyTracker() *hastyTracker {
	t := &hastyTracker{quit: make(chan struct{}), start: make(chan struct{}), done: make(chan struct{})}
	go t.track()
	return t
}

func (t *hastyTracker) dec() {
	t.done <- struct{}{} // want `send on t\.done \(chan struct\{\}, unbuffered\) can block forever: its receiver \(\*hastyTracker\)\.track can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
}

func (t *hastyTracker) track() {
	var active int
	for {
		select {
		case <-t.start:
			active++
		case <-t.done:
			active--
		case <-t.quit:
			for ; active > 1; active-- {
				<-t.done // one report too few
			}
			return
		}
	}
}

type forgetfulTracker struct {
	quit  chan struct{}
	start chan struct{}
	done  chan struct{}
}

func startForgetfulTracker() *forgetfulTracker {
	t := &forgetfulTracker{quit: make(chan struct{}), start: make(chan struct{}), done: make(chan struct{})}
	go t.track()
	return t
}

func (t *forgetfulTracker) dec() {
	t.done <- struct{}{} // want `send on t\.done \(chan struct\{\}, unbuffered\) can block forever: its receiver \(\*forgetfulTracker\)\.track can stop receiving, and no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up$`
}

func (t *forgetfulTracker) track() {
	var active int
	for {
		select {
		case <-t.start:
			active++
		case <-t.done:
			active--
		case <-t.quit:
			for ; active > 0; active = 0 {
				<-t.done // takes the first report and forgets the rest
			}
			return
		}
	}
}
