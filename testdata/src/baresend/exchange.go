package baresend

// Near misses of the token exchange in armed.go's discovery transport,
// where the dispatcher's later tokens each answer a packet the reader
// sent after taking the token before. Each breaks one link of that chain,
// and the dispatcher's token can then find the slot full after the
// reader has returned.

// An echo transport's reader answers every token twice: two packets, two
// tokens back, one slot.
type echoTransport struct {
	readNext chan struct{}
	packets  chan datagram
	closing  chan struct{}
	read     func() (datagram, error)
}

func ListenEcho(read func() (datagram, error)) *echoTransport {
	t := &echoTransport{readNext: make(chan struct{}, 1), packets: make(chan datagram), closing: make(chan struct{}), read: read}
	go t.readLoop()
	go t.dispatch()
	return t
}

func (t *echoTransport) dispatch() {
	t.readNext <- struct{}{} // ok: the first value the transport's one-slot channel gets
	for {
		select {
		case <-t.packets:
			t.readNext <- struct{}{} // want `send on t\.readNext \(chan struct\{\}, cap 1\) can block forever: its receiver \(\*echoTransport\)\.readLoop can stop receiving`
		case <-t.closing:
			return
		}
	}
}

func (t *echoTransport) readLoop() {
	for range t.readNext {
		p, err := t.read()
		if err != nil {
			return
		}
		t.deliver(p)
		t.deliver(p)
	}
}

func (t *echoTransport) deliver(p datagram) {
	select {
	case t.packets <- p:
	case <-t.closing:
	}
}

// A tap transport also takes packets from Inject, which no token paid for.
type tapTransport struct {
	readNext chan struct{}
	packets  chan datagram
	closing  chan struct{}
	read     func() (datagram, error)
}

func ListenTap(read func() (datagram, error)) *tapTransport {
	t := &tapTransport{readNext: make(chan struct{}, 1), packets: make(chan datagram), closing: make(chan struct{}), read: read}
	go t.readLoop()
	go t.dispatch()
	return t
}

func (t *tapTransport) Inject(p datagram) {
	select {
	case t.packets <- p:
	case <-t.closing:
	}
}

func (t *tapTransport) dispatch() {
	t.readNext <- struct{}{} // ok: the first value the transport's one-slot channel gets
	for {
		select {
		case <-t.packets:
			t.readNext <- struct{}{} // want `send on t\.readNext \(chan struct\{\}, cap 1\) can block forever: its receiver \(\*tapTransport\)\.readLoop can stop receiving`
		case <-t.closing:
			return
		}
	}
}

func (t *tapTransport) readLoop() {
	for range t.readNext {
		p, err := t.read()
		if err != nil {
			return
		}
		t.deliver(p)
	}
}

func (t *tapTransport) deliver(p datagram) {
	select {
	case t.packets <- p:
	case <-t.closing:
	}
}

// A drain transport's reader closes packets as it leaves: the dispatcher
// then takes a packet nobody sent, as often as it likes.
type drainTransport struct {
	readNext chan struct{}
	packets  chan datagram
	read     func() (datagram, error)
}

func ListenDrain(read func() (datagram, error)) *drainTransport {
	t := &drainTransport{readNext: make(chan struct{}, 1), packets: make(chan datagram), read: read}
	go t.readLoop()
	go t.dispatch()
	return t
}

func (t *drainTransport) dispatch() {
	t.readNext <- struct{}{} // ok: the first value the transport's one-slot channel gets
	for {
		<-t.packets
		t.readNext <- struct{}{} // want `send on t\.readNext \(chan struct\{\}, cap 1\) can block forever: its receiver \(\*drainTransport\)\.readLoop can stop receiving`
	}
}

func (t *drainTransport) readLoop() {
	defer close(t.packets)
	for range t.readNext {
		p, err := t.read()
		if err != nil {
			return
		}
		t.packets <- p
	}
}
