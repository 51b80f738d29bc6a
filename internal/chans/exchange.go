package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// Exchanged reports whether send, on the buffered channel that field f of
// its object holds, always finds room because f and another channel field
// g of the same object pass one token back and forth:
//
//	func (t *transport) dispatch() {
//		t.readNext <- struct{}{}          // the arm (ArmedFirst)
//		for {
//			select {
//			case p := <-t.packetIn:       // the reader's answer to the last token
//				t.handle(p)
//				t.readNext <- struct{}{}  // send: the next token
//			...
//	func (t *transport) readLoop() {
//		for range t.readNext {            // take a token
//			n, err := t.conn.Read(buf)
//			...
//			t.deliver(buf[:n])            // select { case t.packetIn <- p: case <-ctx.Done(): }
//
// Every send on f is in one function, run once per object. One of them,
// the arm, puts the first value f ever holds (ArmedFirst); every other
// runs only after a take from g on the same object, at most once per
// take. Every send on g in the package likewise runs only after a take
// from f on its object, at most once per take, in its own function or in
// a helper each of whose calls does. So every value in f is the arm or
// answers a value of g that answered a value taken from f: f never holds
// more than the one value the arm put there, however slow its reader, or
// gone. Nothing may close g (a closed g hands out values nobody sent),
// and both channels must go nowhere but straight into sends, receives
// and closes, so that no send out of sight adds a token.
func (x *Index) Exchanged(send *ssa.Send, f *types.Var) bool {
	e := exchange{x: x, shipped: !InTestFile(send)}
	if !e.privateChan(f) || !x.buffered(f) {
		return false
	}
	sender, _, ok := x.oneSender(f)
	if !ok || sender != send.Parent() {
		return false
	}
	base, _, ok := FieldLoad(send.Chan)
	if !ok || len(sender.Params) == 0 || base != sender.Params[0] {
		return false
	}
	var arms, paid []ssa.Instruction
	var g *types.Var
	e.sendsOn(f, func(instr ssa.Instruction) {
		take, from := x.takeBefore(instr, base, f)
		switch {
		case take == nil:
			arms = append(arms, instr)
		case g == nil || g == from:
			g = from
			paid = append(paid, instr)
		default:
			arms = append(arms, instr) // paid by two channels: no proof
		}
	})
	if len(arms) != 1 || g == nil || !e.privateChan(g) || len(x.closesOf(g)) > 0 {
		return false
	}
	arm, isSend := arms[0].(*ssa.Send)
	return isSend && arm != send && x.ArmedFirst(arm, f) && x.oncePerTake(paid, f) && e.answersTakes(g, f)
}

// An exchange is the proof of Exchanged for one send. A send outside the
// tests leaves out what the tests do: a test that feeds a channel by hand
// drives the object in a way the program never does.
type exchange struct {
	x       *Index
	shipped bool
}

// skip reports whether instr is left out of the proof.
func (e exchange) skip(instr ssa.Instruction) bool {
	return e.shipped && InTestFile(instr)
}

// sendsOn calls f for every send on field g that the proof counts.
func (e exchange) sendsOn(g *types.Var, f func(instr ssa.Instruction)) {
	e.x.sendsOnField(g, func(instr ssa.Instruction, _ ssa.Value) {
		if !e.skip(instr) {
			f(instr)
		}
	})
}

// privateChan reports whether f is an unexported channel field filled
// only with channels made for a struct just allocated, each make used
// only to fill it, and every load of it used only as the channel of a
// send, receive, select case or close: no alias of the channel exists.
func (e exchange) privateChan(f *types.Var) bool {
	x := e.x
	if f.Exported() || !x.filledFresh(f) {
		return false
	}
	for _, st := range x.fieldSts[f] {
		for _, ref := range *st.Val.(*ssa.MakeChan).Referrers() {
			if ref != st {
				if _, debug := ref.(*ssa.DebugRef); !debug {
					return false
				}
			}
		}
	}
	for _, load := range x.fieldLoads()[f] {
		if e.skip(load) {
			continue
		}
		for _, ref := range *load.Referrers() {
			if !operatesOn(ref, load) {
				return false
			}
		}
	}
	return true
}

// operatesOn reports whether instr uses the channel ch only as the
// channel it sends on, receives from or closes.
func operatesOn(instr ssa.Instruction, ch ssa.Value) bool {
	switch in := instr.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.Send:
		return in.X != ch
	case *ssa.UnOp:
		return in.Op == token.ARROW
	case *ssa.Select:
		for _, st := range in.States {
			if st.Send == ch {
				return false
			}
		}
		return true
	case *ssa.Call:
		b, ok := in.Call.Value.(*ssa.Builtin)
		return ok && (b.Name() == "close" || b.Name() == "len" || b.Name() == "cap")
	}
	return false
}

// answersTakes reports whether every send on g in the package runs only
// after a take from f on the object it sends on, at most once per take:
// in the function of the take, or in a helper (its object its receiver)
// that sends at most once per call, every call of which is so placed.
func (e exchange) answersTakes(g, f *types.Var) bool {
	x := e.x
	byFunc := make(map[*ssa.Function][]ssa.Instruction)
	e.sendsOn(g, func(instr ssa.Instruction) {
		byFunc[instr.Parent()] = append(byFunc[instr.Parent()], instr)
	})
	if len(byFunc) == 0 {
		return false
	}
	var answers []ssa.Instruction
	for fn, sends := range byFunc {
		if x.takenFrom(sends, g, f) {
			answers = append(answers, sends...)
			continue
		}
		calls, ok := e.helperCalls(fn, sends, g)
		if !ok || !x.takenFrom(calls, g, f) {
			return false
		}
		answers = append(answers, calls...)
	}
	return x.oncePerTake(answers, g)
}

// takenFrom reports whether each of instrs, a send on g or a call of a
// helper that sends on it, follows a take from f on the object it sends
// on.
func (x *Index) takenFrom(instrs []ssa.Instruction, g, f *types.Var) bool {
	for _, in := range instrs {
		base, ok := takenBase(in, g)
		if !ok {
			return false
		}
		if t, from := x.takeBefore(in, base, g); t == nil || from != f {
			return false
		}
	}
	return true
}

// helperCalls returns the calls of fn when fn is a helper that sends on
// its receiver's g at most once per call (sends are those sends), and
// all its calls are in sight.
func (e exchange) helperCalls(fn *ssa.Function, sends []ssa.Instruction, g *types.Var) ([]ssa.Instruction, bool) {
	if len(fn.Params) == 0 {
		return nil, false
	}
	for _, s := range sends {
		if base, _ := sentOnField(s, g); base != fn.Params[0] {
			return nil, false
		}
		for _, t := range sends {
			if flow.Reaches(s, t) {
				return nil, false
			}
		}
	}
	calls, ok := e.x.callers(fn)
	if !ok {
		return nil, false
	}
	var out []ssa.Instruction
	for _, c := range calls {
		if e.skip(c) {
			continue
		}
		if c.Common().IsInvoke() || len(c.Common().Args) == 0 {
			return nil, false
		}
		out = append(out, c)
	}
	return out, len(out) > 0
}

// sentOnField returns the object whose field g the send or select send
// case instr sends on.
func sentOnField(instr ssa.Instruction, g *types.Var) (ssa.Value, bool) {
	var chans []ssa.Value
	switch in := instr.(type) {
	case *ssa.Send:
		chans = []ssa.Value{in.Chan}
	case *ssa.Select:
		for _, st := range in.States {
			if st.Dir == types.SendOnly {
				chans = append(chans, st.Chan)
			}
		}
	}
	var base ssa.Value
	for _, ch := range chans {
		b, i, ok := FieldLoad(ch)
		if !ok || FieldOf(b.Type(), i, true) != g || base != nil && base != b {
			continue
		}
		base = b
	}
	return base, base != nil
}

// A tokenTake is a receive that an instruction runs only after, on the
// branch where it took a value: a plain receive whose block dominates the
// instruction's, the ok branch of a comma-ok receive (a range over the
// channel), or the body of a select case.
type tokenTake struct {
	instr ssa.Instruction // the receive or the select
	entry *ssa.BasicBlock // its block
}

// takeBefore returns the take of instr from a channel field of base other
// than not, with that field, when there is exactly one field it could be.
func (x *Index) takeBefore(instr ssa.Instruction, base ssa.Value, not *types.Var) (*tokenTake, *types.Var) {
	var found *tokenTake
	var field *types.Var
	b := instr.Block()
	for _, blk := range instr.Parent().Blocks {
		if !blk.Dominates(b) {
			continue
		}
		for i, in := range blk.Instrs {
			for _, t := range takesIn(in, base) {
				if t.field == not || blk == b && i >= flow.IndexOf(instr) || !t.guards(b) {
					continue
				}
				if field != nil && field != t.field {
					return nil, nil
				}
				tk := t.tokenTake
				found, field = &tk, t.field
			}
		}
	}
	if found == nil || x.Loops(instr.Parent()).RepeatsWithout(b, found.entry) {
		return nil, nil
	}
	return found, field
}

// A fieldTake is a take from one field, with the edge its value is taken
// on when only one branch takes it.
type fieldTake struct {
	tokenTake
	field *types.Var
	edge  flow.Edge // zero when every path past the receive took a value
}

// guards reports whether every path to b passes where the value was
// taken.
func (t fieldTake) guards(b *ssa.BasicBlock) bool {
	if t.edge.From == nil {
		return true
	}
	return flow.EdgeDominates(t.edge.From, t.edge.To, b)
}

// takesIn returns the takes that instr makes from channel fields of base.
func takesIn(instr ssa.Instruction, base ssa.Value) []fieldTake {
	fieldOf := func(ch ssa.Value) *types.Var {
		b, idx, ok := FieldLoad(ch)
		if !ok || b != base {
			return nil
		}
		return FieldOf(b.Type(), idx, true)
	}
	switch in := instr.(type) {
	case *ssa.UnOp:
		f := fieldOf(in.X)
		if in.Op != token.ARROW || f == nil {
			return nil
		}
		t := fieldTake{tokenTake: tokenTake{instr: in, entry: in.Block()}, field: f}
		if in.CommaOk {
			e, ok := okEdge(in)
			if !ok {
				return nil
			}
			t.edge = e
		}
		return []fieldTake{t}
	case *ssa.Select:
		var out []fieldTake
		for k, st := range in.States {
			f := fieldOf(st.Chan)
			if st.Dir != types.RecvOnly || f == nil {
				continue
			}
			if e, ok := CaseEdge(in, k); ok {
				out = append(out, fieldTake{tokenTake: tokenTake{instr: in, entry: in.Block()}, field: f, edge: e})
			}
		}
		return out
	}
	return nil
}

// okEdge returns the edge a comma-ok receive takes when it got a value:
// the one branch okBranches finds for ok being true.
func okEdge(recv *ssa.UnOp) (flow.Edge, bool) {
	edges := make(map[flow.Edge]bool)
	for _, ref := range *recv.Referrers() {
		if ok, isExtract := ref.(*ssa.Extract); isExtract && ok.Index == 1 {
			okBranches(ok, false, edges)
		}
	}
	if len(edges) != 1 {
		return flow.Edge{}, false
	}
	for e := range edges {
		return e, true
	}
	return flow.Edge{}, false
}

// oncePerTake reports whether no path leads from one of instrs to another,
// or back to itself, without passing the take it follows: each take pays
// for one of them at most.
func (x *Index) oncePerTake(instrs []ssa.Instruction, field *types.Var) bool {
	set := make(map[ssa.Instruction]bool, len(instrs))
	for _, in := range instrs {
		set[in] = true
	}
	for _, in := range instrs {
		base, ok := takenBase(in, field)
		if !ok {
			return false
		}
		t, _ := x.takeBefore(in, base, field)
		if t == nil {
			return false
		}
		for to := range set {
			if reachesAvoiding(in, to, func(i ssa.Instruction) bool { return i == t.instr }) {
				return false
			}
		}
	}
	return true
}

// takenBase returns the object whose channel fields pay for instr: the
// object of the send on field, or the first argument of a helper's call.
func takenBase(instr ssa.Instruction, field *types.Var) (ssa.Value, bool) {
	if c, ok := instr.(ssa.CallInstruction); ok {
		if args := c.Common().Args; len(args) > 0 {
			return args[0], true
		}
		return nil, false
	}
	return sentOnField(instr, field)
}
