package silentdrop

// A messaging session settles each transfer once. The link that sends a
// transfer makes it a one-slot channel for the peer's verdict and waits
// on it; the session's loop keeps it in a registry until the peer's
// disposition arrives, takes it out, offers the verdict without waiting,
// and closes it. The default can never run: one value fits in the slot,
// and a second send would panic on the closed channel.

type verdict struct {
	accepted bool
	reason   string
}

type transfer struct {
	id   uint32
	done chan verdict
}

type disposition struct {
	id    uint32
	state verdict
}

type session struct {
	transfers    chan *transfer
	dispositions chan disposition
}

func (s *session) send(id uint32) verdict {
	tr := &transfer{id: id, done: make(chan verdict, 1)}
	s.transfers <- tr
	return <-tr.done
}

func (s *session) settleLoop() {
	pending := make(map[uint32]chan verdict)
	for {
		select {
		case tr := <-s.transfers:
			pending[tr.id] = tr.done
		case d := <-s.dispositions:
			done, ok := pending[d.id]
			if !ok {
				continue
			}
			delete(pending, d.id)
			select {
			case done <- d.state: // ok: the slot's one value, then closed
			default:
			}
			close(done)
		}
	}
}

// A session that keeps the slot open can settle one transfer twice (the
// peer repeats a disposition after a resend), and then the second verdict
// finds the slot full and is lost.

type reusedTransfer struct {
	id   uint32
	done chan verdict
}

type resendingSession struct {
	transfers    chan *reusedTransfer
	dispositions chan disposition
}

func (s *resendingSession) send(id uint32) verdict {
	tr := &reusedTransfer{id: id, done: make(chan verdict, 1)}
	s.transfers <- tr
	return <-tr.done
}

func (s *resendingSession) settleLoop() {
	pending := make(map[uint32]chan verdict)
	for {
		select {
		case tr := <-s.transfers:
			pending[tr.id] = tr.done
		case d := <-s.dispositions:
			done, ok := pending[d.id]
			if !ok {
				continue
			}
			select {
			case done <- d.state: // want `send on done \(chan verdict, cap 1\) drops the verdict without a trace when the channel is full`
			default:
			}
		}
	}
}
