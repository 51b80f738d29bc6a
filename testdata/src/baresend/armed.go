package baresend

import "errors"

// A discovery transport reads datagrams on one goroutine and handles them
// on another. The reader reads only after it takes a token from readNext,
// and the dispatcher hands a token back after each packet: one read at a
// time. The dispatcher arms the first read as it starts. That first token
// goes into a one-slot channel made with the transport, on which nothing
// else has sent yet, and the dispatcher runs once per transport: it cannot
// block. Nor can the tokens it hands back later: each answers a packet,
// which the reader sends only after it took the token before, so the slot
// is empty at every send, even once the reader has returned (exchange.go
// has the near misses of that proof). The first token of a dispatcher
// that two starts share, or that a restart makes again, can find the slot
// full once the reader has returned on close.

type datagram struct{ from string }

type discoveryTransport struct {
	readNext chan struct{}
	packets  chan datagram
	closing  chan struct{}
	read     func() (datagram, error)
}

func newDiscoveryTransport(read func() (datagram, error)) (*discoveryTransport, error) {
	if read == nil {
		return nil, errors.New("no socket")
	}
	t := &discoveryTransport{
		readNext: make(chan struct{}, 1),
		packets:  make(chan datagram),
		closing:  make(chan struct{}),
		read:     read,
	}
	return t, nil
}

func ListenDiscovery(read func() (datagram, error)) (*discoveryTransport, error) {
	t, err := newDiscoveryTransport(read)
	if err != nil {
		return nil, err
	}
	go t.readLoop()
	go t.dispatch()
	return t, nil
}

func (t *discoveryTransport) Close() { close(t.closing) }

func (t *discoveryTransport) dispatch() {
	t.readNext <- struct{}{} // ok: the first value the transport's one-slot channel gets
	for {
		select {
		case p := <-t.packets:
			_ = p.from
			t.readNext <- struct{}{} // ok: answers a packet the reader sent after taking the last token
		case <-t.closing:
			return
		}
	}
}

func (t *discoveryTransport) readLoop() {
	for range t.readNext {
		p, err := t.read()
		if err != nil {
			return
		}
		select {
		case t.packets <- p:
		case <-t.closing:
			return
		}
	}
}

// The near misses below each break one condition. A relay starts its
// dispatcher from every Listen on the same relay, so a second run's first
// token can meet the first run's.

type relayTransport struct {
	readNext chan struct{}
	packets  chan datagram
	closing  chan struct{}
}

func StartRelay() *relayTransport {
	r := &relayTransport{readNext: make(chan struct{}, 1), packets: make(chan datagram), closing: make(chan struct{})}
	go r.readLoop()
	r.Listen()
	return r
}

func (r *relayTransport) Listen() { go r.dispatch() }

func (r *relayTransport) dispatch() {
	r.readNext <- struct{}{} // want `send on r\.readNext \(chan struct\{\}, cap 1\) can block forever: its receiver \(\*relayTransport\)\.readLoop can stop receiving`
	for {
		select {
		case <-r.packets:
			r.readNext <- struct{}{} // want `send on r\.readNext \(chan struct\{\}, cap 1\) can block forever`
		case <-r.closing:
			return
		}
	}
}

func (r *relayTransport) readLoop() {
	for {
		select {
		case <-r.readNext:
		case <-r.closing:
			return
		}
	}
}

// A bridge also primes its reader from Resume, so the dispatcher's first
// token is not the first the channel gets.

type bridgeTransport struct {
	readNext chan struct{}
	packets  chan datagram
	closing  chan struct{}
}

func StartBridge() *bridgeTransport {
	b := &bridgeTransport{readNext: make(chan struct{}, 1), packets: make(chan datagram), closing: make(chan struct{})}
	go b.readLoop()
	go b.dispatch()
	return b
}

func (b *bridgeTransport) Resume() {
	b.readNext <- struct{}{} // want `\[audit: its receiver \(\*bridgeTransport\)\.readLoop stops only when told to, and this send is made once per call into a buffer of 1`
}

func (b *bridgeTransport) dispatch() {
	b.readNext <- struct{}{} // want `send on b\.readNext \(chan struct\{\}, cap 1\) can block forever: its receiver \(\*bridgeTransport\)\.readLoop can stop receiving`
	for {
		select {
		case <-b.packets:
			b.readNext <- struct{}{} // want `send on b\.readNext \(chan struct\{\}, cap 1\) can block forever`
		case <-b.closing:
			return
		}
	}
}

func (b *bridgeTransport) readLoop() {
	for {
		select {
		case <-b.readNext:
		case <-b.closing:
			return
		}
	}
}

// A mirror makes its token channel again on Reset, into the live mirror,
// where the old dispatcher may already have sent.

type mirrorTransport struct {
	readNext chan struct{}
	packets  chan datagram
	closing  chan struct{}
}

func StartMirror() *mirrorTransport {
	m := &mirrorTransport{readNext: make(chan struct{}, 1), packets: make(chan datagram), closing: make(chan struct{})}
	go m.readLoop()
	go m.dispatch()
	return m
}

func (m *mirrorTransport) Reset() { m.readNext = make(chan struct{}, 1) }

func (m *mirrorTransport) dispatch() {
	m.readNext <- struct{}{} // want `send on m\.readNext \(chan struct\{\}, cap 1\) can block forever: its receiver \(\*mirrorTransport\)\.readLoop can stop receiving`
	for {
		select {
		case <-m.packets:
			m.readNext <- struct{}{} // want `send on m\.readNext \(chan struct\{\}, cap 1\) can block forever`
		case <-m.closing:
			return
		}
	}
}

func (m *mirrorTransport) readLoop() {
	for {
		select {
		case <-m.readNext:
		case <-m.closing:
			return
		}
	}
}
