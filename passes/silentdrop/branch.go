package silentdrop

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// branch is what a select with a default runs when no case can proceed.
//
//	t3 = select nonblocking [t0<-t1, <-t2] (index int, ok bool, T)
//	t4 = extract t3 #0
//	t5 = t4 == 0:int
//	if t5 goto 1 else 2              // 1: body of case 0
//	2: t6 = t4 == 1:int
//	if t6 goto 3 else 4              // 3: body of case 1; 4: the default
//
// The default starts on the else edge of the last case test (from →
// entry). An empty default is a jump the builder threads straight to the
// code after the select; when the last case is empty too, the test itself
// becomes a jump and the default shares that case's edge.
//
// The default's own code is what runs only when the send did not happen:
// the blocks reachable from its entry and from no send case's body, going
// round to the select again counting as leaving. That includes code after
// the select that only the default and a receive case reach.
type branch struct {
	sel        *ssa.Select
	from       *ssa.BasicBlock
	entry      *ssa.BasicBlock
	shared     bool                     // the default shares the last case's code
	blocks     map[*ssa.BasicBlock]bool // the default's own code
	sendBlocks map[*ssa.BasicBlock]bool // code only the send cases reach
	sendReach  map[*ssa.BasicBlock]bool // code the send cases reach
	cases      []caseEdge               // the edges into the bodies of the send cases
}

type caseEdge struct{ from, to *ssa.BasicBlock }

func defaultBranch(sel *ssa.Select) (*branch, bool) {
	last := len(sel.States) - 1
	test := caseTest(sel, last)
	if test == nil {
		return nil, false
	}
	from := test.Block()
	if cond, ok := from.Instrs[len(from.Instrs)-1].(*ssa.If); ok && cond.Cond == test {
		return newBranch(sel, from, from.Succs[1], false), true
	}
	// The last case and the default were both empty: the test became a
	// jump, and the code after it is shared.
	return newBranch(sel, from, from, true), true
}

// caseBranch returns case k of sel as a branch of its own, set against
// the select's send cases as the default is.
func caseBranch(sel *ssa.Select, k int) (*branch, bool) {
	e, ok := chans.CaseEdge(sel, k)
	if !ok {
		return nil, false
	}
	return newBranch(sel, e.From, e.To, false), true
}

// newBranch is the way out of sel that enters entry from the block from:
// the code only it reaches, and what only the send cases reach.
func newBranch(sel *ssa.Select, from, entry *ssa.BasicBlock, shared bool) *branch {
	last := len(sel.States) - 1
	d := &branch{sel: sel, from: from, entry: entry, shared: shared}
	for i, st := range sel.States {
		if st.Dir != types.SendOnly {
			continue
		}
		if e, ok := chans.CaseEdge(sel, i); ok {
			d.cases = append(d.cases, caseEdge{e.From, e.To})
		} else if i == last && d.shared {
			d.cases = append(d.cases, caseEdge{nil, d.entry})
		}
	}
	// A way out that jumps straight back to the select's block (an empty
	// case at the end of a loop body) goes round: it reaches nothing.
	d.sendReach = map[*ssa.BasicBlock]bool{}
	for _, e := range d.cases {
		if e.to != sel.Block() {
			reach(e.to, sel.Block(), d.sendReach)
		}
	}
	fromDefault := map[*ssa.BasicBlock]bool{}
	if d.entry != sel.Block() {
		reach(d.entry, sel.Block(), fromDefault)
	}
	d.blocks = minus(fromDefault, d.sendReach)
	d.sendBlocks = minus(d.sendReach, fromDefault)
	return d
}

// caseTest returns the comparison that tests whether case k was chosen:
//
//	t5 = t4 == k:int    where t4 = extract t3 #0
func caseTest(sel *ssa.Select, k int) *ssa.BinOp {
	for _, ref := range *sel.Referrers() {
		idx, ok := ref.(*ssa.Extract)
		if !ok || idx.Index != 0 {
			continue
		}
		for _, ref := range *idx.Referrers() {
			if cmp, ok := ref.(*ssa.BinOp); ok && cmp.Op == token.EQL && isInt(cmp.Y, k) {
				return cmp
			}
		}
	}
	return nil
}

func isInt(v ssa.Value, k int) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	n, ok := constant.Int64Val(c.Value)
	return ok && n == int64(k)
}

// reach adds to seen start and the blocks reachable from it without
// passing through stop again.
func reach(start, stop *ssa.BasicBlock, seen map[*ssa.BasicBlock]bool) {
	var walk func(b *ssa.BasicBlock)
	walk = func(b *ssa.BasicBlock) {
		if seen[b] {
			return
		}
		seen[b] = true
		for _, s := range b.Succs {
			if s != stop {
				walk(s)
			}
		}
	}
	walk(start)
}

func minus(a, b map[*ssa.BasicBlock]bool) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	for x := range a {
		if !b[x] {
			out[x] = true
		}
	}
	return out
}

// side says which way control left the select on the edge pred → b:
// +1 through the default, -1 through a send case, 0 either or neither.
func (d *branch) side(pred, b *ssa.BasicBlock) int {
	for _, e := range d.cases {
		if e.from != nil && pred == e.from && b == e.to {
			return -1
		}
	}
	switch {
	case d.blocks[pred] || (!d.shared && pred == d.from && b == d.entry):
		return +1
	case d.sendBlocks[pred]:
		return -1
	}
	return 0
}

// returns lists the returns of the blocks in set.
func returns(set map[*ssa.BasicBlock]bool) []*ssa.Return {
	var out []*ssa.Return
	for b := range set {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			out = append(out, ret)
		}
	}
	return out
}

// returnsStatus reports whether a return that only the default reaches
// tells the caller that the value was dropped: some result differs from
// what the send cases return (return false against return true, return
// errFull against return nil). When the send cases never return, any
// result is a status but nil and true, which tell the caller that all
// went through.
func (d *branch) returnsStatus() bool {
	sent := returns(d.sendReach)
	for _, ret := range returns(d.blocks) {
		if len(ret.Results) == 0 {
			continue
		}
		if len(sent) == 0 {
			if !wentThrough(ret) {
				return true
			}
			continue
		}
		for _, s := range sent {
			for i, r := range ret.Results {
				if !sameValue(r, s.Results[i]) {
					return true
				}
			}
		}
	}
	return false
}

// wentThrough reports whether every result of ret is nil or true.
func wentThrough(ret *ssa.Return) bool {
	for _, r := range ret.Results {
		k, ok := r.(*ssa.Const)
		if !ok || k.Value != nil && (k.Value.Kind() != constant.Bool || !constant.BoolVal(k.Value)) {
			return false
		}
	}
	return true
}

// branchFlag reports whether a value that depends on which way the select
// went is used after it: a phi that merges different values from the
// default and from a send case (sent := false ... sent = true; a counter
// incremented in the default), read by anything other than its own
// update. That value is the status the code keeps: it is returned, tested
// or logged.
func (d *branch) branchFlag() bool {
	for _, b := range d.sel.Parent().Blocks {
		if d.blocks[b] {
			continue
		}
		for _, instr := range b.Instrs {
			phi, ok := instr.(*ssa.Phi)
			if !ok {
				break
			}
			if d.splits(phi) && used(phi) {
				return true
			}
		}
	}
	return false
}

// splits reports whether phi gets, through the default, a value it does
// not get through a send case.
func (d *branch) splits(phi *ssa.Phi) bool {
	var viaDefault, viaSend []ssa.Value
	for i, pred := range phi.Block().Preds {
		switch d.side(pred, phi.Block()) {
		case +1:
			viaDefault = append(viaDefault, phi.Edges[i])
		case -1:
			viaSend = append(viaSend, phi.Edges[i])
		}
	}
	for _, x := range viaDefault {
		for _, y := range viaSend {
			if !sameValue(x, y) {
				return true
			}
		}
	}
	return false
}

// used reports whether v, or a value computed from it by phis and
// additions, is read by anything else: a counter that only feeds its own
// increment is not used.
func used(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var visit func(v ssa.Value) bool
	visit = func(v ssa.Value) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.Phi:
				if visit(r) {
					return true
				}
			case *ssa.BinOp:
				if !isArith(r) {
					return true
				}
				if visit(r) {
					return true
				}
			default:
				return true
			}
		}
		return false
	}
	return visit(v)
}

func isArith(b *ssa.BinOp) bool {
	switch b.Op {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM,
		token.AND, token.OR, token.XOR, token.SHL, token.SHR, token.AND_NOT:
		return true
	}
	return false
}

// sameValue reports whether a and b are the same value: one SSA value, or
// equal constants.
func sameValue(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ca, ok1 := a.(*ssa.Const)
	cb, ok2 := b.(*ssa.Const)
	if !ok1 || !ok2 {
		return false
	}
	if ca.Value == nil || cb.Value == nil {
		return ca.Value == nil && cb.Value == nil
	}
	return ca.Value.Kind() == cb.Value.Kind() && constant.Compare(ca.Value, token.EQL, cb.Value)
}
