package grpcsend

// mailbox has a Send method but is no stream: it embeds none.
type mailbox struct{ out []any }

func (b *mailbox) Send(m any) error {
	b.out = append(b.out, m)
	return nil
}

// sender is a user interface with a stream-like Send; what implements it
// is unknown, so calls through it are not stream sends.
type sender interface{ Send(*Feature) error }

// notify embeds a stream, but its own Send takes two arguments and returns
// nothing: not the shape of a generated Send.
type notify struct{ RouteGuide_RouteChatServer }

func (n notify) Send(ms []*Feature, fanout int) {}

func (n notify) SendAll(ms []*Feature) {}

func nearMisses(b *mailbox, s sender, n notify) {
	b.Send(nil)        // ok: not a stream
	s.Send(&Feature{}) // ok: an interface that embeds no stream
	n.Send(nil, 2)     // ok: not the signature of a send
	n.SendAll(nil)     // ok: not a send method
}
