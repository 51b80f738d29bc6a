package verdict

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// A gate is the variable by which an owner runs one goroutine at a time
// without waiting for it: it starts a run only while the variable is nil,
// sets it to a fresh channel just before the go statement, and sets it
// back to nil only once a receive from it fired; the run closes that
// channel only on paths that send nothing on the group.
//
//	for {
//		if done == nil && len(queue) > 0 {
//			done = make(chan struct{})
//			go func() {
//				if err := write(batch); err != nil {
//					fail <- err // no close: no run starts after this one
//					return
//				}
//				close(done)
//			}()
//		}
//		select {
//		case <-done:
//			done = nil // the last run sent nothing
//		case <-fail:
//		case <-quit:
//			return
//		}
//	}
//
// A way back to the go statement that passes the nil test must have set
// the variable to nil after the last run closed its channel, so that run
// sent nothing: for oneAtATime the reset counts as a receive from the
// group, and the nil test's edge, reached without one, cannot be taken.
type gate struct {
	open   flow.Edge                // the nil test's edge towards the go statement
	resets map[ssa.Instruction]bool // the stores of nil, each after a receive from the gate
}

// gateOf returns the gate of the go statement start, if it has one.
func gateOf(start *ssa.Go, group []*chans.Uses) *gate {
	open, cell, ok := nilTest(start)
	if !ok {
		return nil
	}
	g := &gate{open: open, resets: make(map[ssa.Instruction]bool)}
	var made bool
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.Store:
			switch {
			case r.Addr != cell:
				return nil
			case isMake(r.Val) && r.Block() == start.Block() && flow.IndexOf(r) < flow.IndexOf(start):
				made = true
			case isNilValue(r.Val) && receivedBefore(r, cell):
				g.resets[r] = true
			default:
				return nil
			}
		case *ssa.MakeClosure:
			if start.Call.Value != r || !closesOnlyUnsent(r, cell, group) {
				return nil
			}
		default:
			return nil
		}
	}
	if !made {
		return nil
	}
	return g
}

// nilTest finds the test ch == nil, with ch loaded from a variable of the
// owner, on whose true branch alone start runs.
func nilTest(start *ssa.Go) (flow.Edge, *ssa.Alloc, bool) {
	b := start.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ || !isNilValue(cmp.Y) {
			continue
		}
		load, ok := cmp.X.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		cell, ok := load.X.(*ssa.Alloc)
		if !ok || !cell.Heap || cell.Parent() != start.Parent() {
			continue
		}
		succ := d.Succs[0]
		if cmp.Op == token.NEQ {
			succ = d.Succs[1]
		}
		if onlyThrough(d, succ, b) {
			return flow.Edge{From: d, To: succ}, cell, true
		}
	}
	return flow.Edge{}, nil, false
}

// onlyThrough reports whether every path to b takes the edge from d to
// succ.
func onlyThrough(d, succ, b *ssa.BasicBlock) bool {
	if !succ.Dominates(b) {
		return false
	}
	for _, p := range succ.Preds {
		if p != d && !succ.Dominates(p) {
			return false
		}
	}
	return true
}

// receivedBefore reports whether the store st runs only after a receive
// from the channel in cell fired: a plain receive earlier in its block, or
// the select case whose edge every path to st takes.
func receivedBefore(st *ssa.Store, cell *ssa.Alloc) bool {
	fromCell := func(v ssa.Value) bool {
		load, ok := v.(*ssa.UnOp)
		return ok && load.Op == token.MUL && load.X == cell
	}
	for _, instr := range st.Block().Instrs[:flow.IndexOf(st)] {
		if r, ok := instr.(*ssa.UnOp); ok && r.Op == token.ARROW && fromCell(r.X) {
			return true
		}
	}
	for _, b := range st.Parent().Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for k, state := range sel.States {
				if state.Dir != types.RecvOnly || !fromCell(state.Chan) {
					continue
				}
				if e, ok := chans.CaseEdge(sel, k); ok && onlyThrough(e.From, e.To, st.Block()) {
					return true
				}
			}
		}
	}
	return false
}

// closesOnlyUnsent reports whether the run that mc makes uses the gate it
// captures from cell only to close it, on paths that neither follow nor
// lead to one of its sends on the group.
func closesOnlyUnsent(mc *ssa.MakeClosure, cell *ssa.Alloc, group []*chans.Uses) bool {
	fn := mc.Fn.(*ssa.Function)
	var sends []ssa.Instruction
	for _, g := range group {
		for _, s := range g.Sends {
			sends = append(sends, s.Instr)
		}
	}
	closed := false
	for i, b := range mc.Bindings {
		if b != cell {
			continue
		}
		for _, ref := range *fn.FreeVars[i].Referrers() {
			load, ok := ref.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				return false
			}
			for _, use := range *load.Referrers() {
				call, ok := use.(*ssa.Call)
				if !ok || !isBuiltinClose(call) {
					return false
				}
				for _, s := range sends {
					if flow.Reaches(call, s) || flow.Reaches(s, call) {
						return false
					}
				}
				closed = true
			}
		}
	}
	return closed
}

func isBuiltinClose(call *ssa.Call) bool {
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "close"
}

func isMake(v ssa.Value) bool {
	_, ok := v.(*ssa.MakeChan)
	return ok
}

func isNilValue(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}
