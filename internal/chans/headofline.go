package chans

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A loop that serves many consumers, one message at a time, hands each
// message to its consumer's buffer. When the hand-off waits for room, and
// its only ways out are that consumer closing or the whole owner closing,
// a consumer that stays open and stops reading holds the loop, and every
// other consumer waits behind it:
//
//	func (c *Client) receiveLoop() {
//		for {
//			msg := c.read()
//			s := c.streams[msg.StreamID] // one stream per message
//			s.receive(c.ctx, msg)
//		}
//	}
//
//	func (s *stream) receive(ctx context.Context, msg *message) error {
//		select {
//		case s.recv <- msg: // waits while this stream is open and not reading
//			return nil
//		case <-s.recvClose:  // this stream closed
//			return s.recvErr
//		case <-ctx.Done():   // the whole client closed
//			return ctx.Err()
//		}
//	}
//
// No send here waits forever, so the rules of a bare send say nothing:
// the wait is bounded only by the consumer's own code.

// HeadOfLine is such a hand-off: the select's send case, and the call in
// the serving loop that makes it.
type HeadOfLine struct {
	Send  int                 // the send case of the select
	Call  ssa.CallInstruction // the call, in the serving loop, of the select's function
	Outs  []token.Pos         // the select's other cases
	Owner *ssa.Function       // the serving loop's function
	// ReaderUnseen is set when nothing in the package reads the channel
	// or hands it to the consumer's caller (readerSeen): the consumer's
	// reader is out of sight, so the pass cannot show it stops reading.
	ReaderUnseen bool
}

// HeadOfLine reports a blocking select that hands a value to a consumer
// for a loop that serves many: its function is a method of the consumer,
// or takes it as a parameter, and sends on a field of it; the select has
// no default, one send case, and receive cases only on channels of the
// same consumer (its close, its context) or on parameters of the
// function; and a call of the function in this package is made in a loop
// on this goroutine (not started with go) with a consumer that differs
// from one trip to the next (looked up per message), and the same values
// for those parameters on every trip; and no goroutine of this package
// relays the channel (relayedByGoroutine). ReaderUnseen says whether
// the consumer's reading side is out of sight.
func (x *Index) HeadOfLine(sel *ssa.Select) (HeadOfLine, bool) {
	if !sel.Blocking {
		return HeadOfLine{}, false
	}
	fn := sel.Parent()
	send, consumer := -1, (*ssa.Parameter)(nil)
	var outs []token.Pos
	var params []*ssa.Parameter
	for i, st := range sel.States {
		if st.Dir == types.SendOnly {
			addr := loadedAddr(st.Chan)
			p, ok := paramOf(addr)
			if send >= 0 || !ok {
				return HeadOfLine{}, false
			}
			send, consumer = i, p
			continue
		}
		outs = append(outs, st.Pos)
	}
	if send < 0 || len(outs) == 0 {
		return HeadOfLine{}, false
	}
	for _, st := range sel.States {
		if st.Dir == types.SendOnly {
			continue
		}
		switch owner, p := consumerSignal(st.Chan, consumer); {
		case owner:
		case p != nil:
			params = append(params, p)
		default:
			return HeadOfLine{}, false
		}
	}
	if x.relayedByGoroutine(sel.States[send].Chan) {
		return HeadOfLine{}, false
	}
	call, ok := x.servedFrom(fn, consumer, params)
	if !ok {
		return HeadOfLine{}, false
	}
	unseen := !x.readerSeen(sel.States[send].Chan)
	return HeadOfLine{Send: send, Call: call, Outs: outs, Owner: call.Parent(), ReaderUnseen: unseen}, true
}

// relayedByGoroutine reports whether a goroutine of this package takes from the
// consumer's channel in a loop: a relay that keeps reading while the
// consumer is open, whatever its own reader does (it queues what it
// takes), so a slow reader holds only the relay.
func (x *Index) relayedByGoroutine(ch ssa.Value) bool {
	f := LoadedField(ch)
	if f == nil {
		return false
	}
	for _, r := range x.FieldReceives(f) {
		if r.Func != nil && x.Loops(r.Func).InLoop(r.Instr.Block()) && x.startedByGo(r.Func) {
			return true
		}
	}
	return false
}

// readerSeen reports whether the consumer's reading side of ch, a field's
// channel, is in sight: a receive of it in this package, a function that
// returns it (or the same channel kept in another field) to its caller,
// or a store of a channel the caller handed in.
// Only then can a consumer stop reading while it stays open. A channel
// read where the pass cannot look (a reflect.Select of the package's own
// forwarding loop, a library it is handed to) has a reader whose habits
// are unknown, and a hand-off to it proves nothing.
func (x *Index) readerSeen(ch ssa.Value) bool {
	f := LoadedField(ch)
	if f == nil {
		return true
	}
	for _, r := range x.FieldReceives(f) {
		if !InTestFile(r.Instr) {
			return true
		}
	}
	for _, g := range x.sameChannel(f) {
		for _, load := range x.fieldLoads()[g] {
			if returned(load, 0) {
				return true
			}
		}
	}
	for _, v := range x.fieldVals[f] {
		if _, ok := v.(*ssa.Parameter); ok {
			return true
		}
	}
	return false
}

// sameChannel returns f and the other fields that hold a channel made for
// f: a subscription that keeps one channel as postC for its sender and as
// readC for the caller it hands it to.
func (x *Index) sameChannel(f *types.Var) []*types.Var {
	out := []*types.Var{f}
	makes := x.FieldMakes(f)
	for g, vals := range x.fieldVals {
		if g == f {
			continue
		}
		for _, v := range vals {
			// chan T stored as <-chan T or chan<- T
			if mk, ok := Unconverted(v).(*ssa.MakeChan); ok && slices.Contains(makes, mk) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// returned reports whether v, or a conversion of it, is a result of its
// function.
func returned(v ssa.Value, depth int) bool {
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Return:
			return true
		case *ssa.ChangeType:
			if depth < 2 && returned(ref, depth+1) {
				return true
			}
		}
	}
	return false
}

// startedByGo reports whether a go statement of this package runs fn.
func (x *Index) startedByGo(fn *ssa.Function) bool {
	sites, _ := x.callers(fn)
	for _, s := range sites {
		if _, ok := s.(*ssa.Go); ok {
			return true
		}
	}
	return false
}

// paramOf returns the parameter whose field addr addresses.
func paramOf(addr *ssa.FieldAddr) (*ssa.Parameter, bool) {
	if addr == nil {
		return nil, false
	}
	p, ok := addr.X.(*ssa.Parameter)
	return p, ok
}

// consumerSignal says what a receive case's channel is: a channel of the
// consumer (a field of it, or the Done of a context held in a field of
// it), owner; or a parameter of the function, p (its caller's context or
// stop channel).
func consumerSignal(ch ssa.Value, consumer *ssa.Parameter) (owner bool, p *ssa.Parameter) {
	if q, ok := paramOf(loadedAddr(ch)); ok && q == consumer {
		return true, nil
	}
	if p, ok := ch.(*ssa.Parameter); ok {
		return false, p
	}
	call, ok := ch.(*ssa.Call)
	if !ok || !call.Call.IsInvoke() || call.Call.Method.Name() != "Done" {
		return false, nil
	}
	switch v := call.Call.Value.(type) {
	case *ssa.Parameter:
		return false, v
	case *ssa.UnOp:
		if q, ok := paramOf(loadedAddr(v)); ok && q == consumer {
			return true, nil
		}
	}
	return false, nil
}

// servedFrom returns a call of fn in this package made inside a loop of
// its function, on its goroutine, that hands fn a consumer that differs
// from one trip to the next and the same values for params on every trip.
// Other calls may hand it one consumer once (the first message of a
// stream, handed on as the stream is set up).
func (x *Index) servedFrom(fn *ssa.Function, consumer *ssa.Parameter, params []*ssa.Parameter) (*ssa.Call, bool) {
	sites, _ := x.callers(fn)
	for _, site := range sites {
		call, ok := site.(*ssa.Call)
		if !ok || InTestFile(call) {
			continue
		}
		loop := x.Loops(call.Parent()).Innermost(call.Block())
		if loop == nil {
			continue
		}
		args := callArgs(call)
		if !flow.Varies(args[consumer], loop) || variesAny(args, params, loop) {
			continue
		}
		return call, true
	}
	return nil, false
}

// variesAny reports whether the value handed to one of params differs
// from one trip of loop to the next.
func variesAny(args map[*ssa.Parameter]ssa.Value, params []*ssa.Parameter, loop *flow.Loop) bool {
	for _, p := range params {
		if flow.Varies(args[p], loop) {
			return true
		}
	}
	return false
}

// callArgs maps the parameters of the function call calls to the values
// it hands them.
func callArgs(call *ssa.Call) map[*ssa.Parameter]ssa.Value {
	out := make(map[*ssa.Parameter]ssa.Value)
	callee := call.Call.StaticCallee()
	if callee == nil {
		return out
	}
	for i, a := range call.Call.Args {
		if i < len(callee.Params) {
			out[callee.Params[i]] = a
		}
	}
	return out
}
