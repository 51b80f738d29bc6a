package verdict

import (
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// filledBeforeHanded judges a send the owner makes in a loop on a channel
// it fills before anyone else can see it: nothing in the package receives
// from it, and no hand-off (a return, a store, a call it is passed to) can
// come before the send. Nobody can receive while the loop runs, so once
// the buffer is full the send blocks for good. The loop sends one value
// per element of a collection; the buffer is smaller on some path when
// its capacity is a constant (the collection may hold more), or a value
// the code clamps to the collection's length, which is itself smaller
// whenever the caller's limit is:
//
//	n := opts.Limit
//	if n == 0 || n > len(peers) {
//		n = len(peers)
//	}
//	ch := make(chan Peer, n)
//	for _, p := range peers {
//		ch <- p // blocks for good when opts.Limit < len(peers)
//	}
//	return ch
func (j *Judge) filledBeforeHanded(u *chans.Uses, s chans.Site) Verdict {
	owner := u.Owner()
	send, ok := s.Instr.(*ssa.Send)
	if !ok || s.Func != owner || len(u.Recvs) > 0 || j.idx.EscapedBefore(u, send) {
		return Verdict{}
	}
	loops := j.idx.Loops(owner)
	l := loops.Innermost(send.Block())
	if l == nil || u.Make.Block() != nil && l.Blocks[u.Make.Block()] {
		return Verdict{} // a fresh channel each trip is another question
	}
	coll := rangedOver(l)
	if coll == nil {
		return Verdict{}
	}
	smaller := ""
	if n, ok := chans.ConstCapOK(u.Make); ok {
		smaller = "when it holds more than " + strconv.Itoa(n)
	} else if limit := clampedBelow(u.Make.Size, coll); limit != nil {
		smaller = "when " + orElse(valueName(limit), "the capacity's other value") + " is below its length"
	}
	if smaller == "" {
		return Verdict{}
	}
	who := OwnerName(owner)
	v := Verdict{
		Blocks: true,
		Reason: "nothing can receive from it before " + who + " hands it out after this loop, which sends one value per element of " +
			orElse(valueName(coll), "a collection") + ", more than the buffer holds " + smaller,
	}
	for _, e := range u.Escapes {
		if flow.Reaches(send, e) {
			v.Related = append(v.Related, analysis.RelatedInformation{Pos: e.Pos(), Message: who + " hands the channel out here"})
			break
		}
	}
	return v
}

func orElse(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// rangedOver returns the collection a loop visits one element per trip:
// the map or string of a range statement, or the slice, array or string
// of a loop bounded by its length.
func rangedOver(l *flow.Loop) ssa.Value {
	for _, instr := range l.Header.Instrs {
		if next, ok := instr.(*ssa.Next); ok {
			if r, ok := next.Iter.(*ssa.Range); ok {
				return r.X
			}
		}
	}
	if b, ok := flow.LoopBound(l).(*ssa.Call); ok && chans.IsLen(b) {
		return b.Call.Args[0]
	}
	return nil
}

// clampedBelow returns the value the capacity size takes, on some path,
// where the code has checked that it is at most len(coll): an edge of a
// phi that comes from the branch where limit > len(coll) was false (or
// limit <= len(coll) true). Nil when there is no such edge.
func clampedBelow(size, coll ssa.Value) ssa.Value {
	phi, ok := size.(*ssa.Phi)
	if !ok {
		return nil
	}
	for i, e := range phi.Edges {
		if isLenOf(e, coll) {
			continue
		}
		pred := phi.Block().Preds[i]
		cond, ok := lastIf(pred)
		if !ok {
			continue
		}
		cmp, ok := cond.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		taken := pred.Succs[0] == phi.Block() // the true branch leads here
		if atMost(cmp, e, coll, taken) {
			return e
		}
	}
	return nil
}

// atMost reports whether reaching an edge on the taken branch of cmp
// means v <= len(coll).
func atMost(cmp *ssa.BinOp, v, coll ssa.Value, taken bool) bool {
	op := cmp.Op
	switch {
	case chans.SameValue(cmp.X, v) && isLenOf(cmp.Y, coll):
	case chans.SameValue(cmp.Y, v) && isLenOf(cmp.X, coll):
		op = chans.Mirror(op)
	default:
		return false
	}
	// v op len: true branch for <, <=; false branch for >, >=.
	switch op {
	case token.LSS, token.LEQ:
		return taken
	case token.GTR, token.GEQ:
		return !taken
	}
	return false
}

func lastIf(b *ssa.BasicBlock) (*ssa.If, bool) {
	if len(b.Instrs) == 0 {
		return nil, false
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	return cond, ok
}

// isLenOf reports whether v is len(coll), coll loaded again or not.
func isLenOf(v, coll ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok || !chans.IsLen(call) {
		return false
	}
	return chans.SameValue(call.Call.Args[0], coll)
}

// valueName names a value for a message as its source does where the
// IR keeps the name (a parameter, a local variable, a field of one), and
// by its last field otherwise.
func valueName(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return valueName(v.X)
		}
	case *ssa.FieldAddr:
		return fieldPath(v.X, v.X.Type(), v.Field)
	case *ssa.Field:
		return fieldPath(v.X, v.X.Type(), v.Field)
	case *ssa.Parameter, *ssa.Global:
		return v.Name()
	case *ssa.Alloc:
		return v.Comment
	case *ssa.Phi:
		return v.Comment
	}
	return ""
}

// fieldPath names field i of x: x's name, a dot and the field, or the
// field alone when x has no name.
func fieldPath(x ssa.Value, t types.Type, i int) string {
	t = t.Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	st, ok := t.(*types.Struct)
	if !ok {
		return ""
	}
	name := st.Field(i).Name()
	if base := valueName(x); base != "" {
		return base + "." + name
	}
	return name
}
