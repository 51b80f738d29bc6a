package singlesender

// relay is the stream's sender, though it is started through a pool the
// analysis cannot see into.
//
//sendlint:sender
func relay(stream Chat_Server, out <-chan *Response) {
	for r := range out {
		stream.Send(r) // ok: the marked sender
	}
}

type pool interface{ Submit(func()) }

func (s *Server) MarkedOK(p pool, stream Chat_Server) error {
	out := make(chan *Response, 16)
	p.Submit(func() { relay(stream, out) })
	return s.pump2(stream, out)
}

func (s *Server) MarkedAndHandlerBad(p pool, stream Chat_Server) error {
	out := make(chan *Response, 16)
	p.Submit(func() { relay(stream, out) })
	if err := s.pump2(stream, out); err != nil {
		return stream.Send(&Response{Status: err.Error()}) // want `stream\.Send is called on Server\.MarkedAndHandlerBad's goroutine, but relay is the stream's sender \(//sendlint:sender\)`
	}
	return nil
}

// want +1 `//sendlint:sender marks no function: put it in the doc comment of a func, or on the line above a func literal`
//sendlint:sender

var unmarked = 1
