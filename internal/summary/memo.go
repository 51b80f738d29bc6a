package summary

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// maxScans bounds how many function bodies one package's summaries may
// scan. Cycles make some bodies scan more than once; past the bound a
// function is taken not to block, rather than the analysis running on.
const maxScans = 200000

// memo is the memoised recursion over static callees. Each function is
// scanned once, except in a cycle: a call back into a function still being
// scanned counts as not blocking for now. A function that blocks is final
// whatever it assumed. One that does not block, having assumed something
// about a frame still open, waits for that frame: if the frame ends up not
// blocking, every such assumption held and the answers are final; if it
// blocks, they are forgotten, and the next question scans them again.
type memo struct {
	done    map[*ssa.Function]*Blocking
	open    map[*ssa.Function]int // functions being scanned, by stack depth
	depth   int
	low     int             // the shallowest open frame the current scan leaned on
	pending []*ssa.Function // answers "does not block" that lean on an open frame
	scans   int
}

func newMemo() *memo {
	return &memo{done: make(map[*ssa.Function]*Blocking), open: make(map[*ssa.Function]int)}
}

const noFrame = int(^uint(0) >> 1)

func (m *memo) get(fn *ssa.Function, scan func(*ssa.Function) *Blocking) *Blocking {
	if b, ok := m.done[fn]; ok {
		return b
	}
	if d, ok := m.open[fn]; ok {
		m.low = min(m.low, d)
		return nil
	}
	if len(fn.Blocks) == 0 || m.scans >= maxScans {
		return nil
	}
	m.scans++
	d := m.depth
	m.depth++
	m.open[fn] = d
	outerLow, start := m.low, len(m.pending)
	m.low = noFrame

	b := scan(fn)

	low := m.low
	delete(m.open, fn)
	m.depth--
	switch {
	case b != nil:
		m.done[fn] = b
		m.pending = m.pending[:start] // they leaned on frames inside this one
	case low >= d:
		// Every frame this scan leaned on was this one or inside it, and
		// none blocked: the answers waiting on them are final.
		for _, p := range m.pending[start:] {
			m.done[p] = nil
		}
		m.pending = m.pending[:start]
		m.done[fn] = nil
	default:
		m.pending = append(m.pending, fn)
	}
	if b != nil {
		low = noFrame // a send found is found whatever the scan assumed
	}
	m.low = min(outerLow, low)
	return b
}

// FuncName names a function for facts and messages, with its package's
// name: "lib.Publish", "(*runnerhub.commandRouter).send1",
// "(lib.Queue).Put".
func FuncName(fn *types.Func) string {
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Name() + "."
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return pkg + fn.Name()
	}
	t := types.Unalias(recv.Type())
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = types.Unalias(p.Elem()), true
	}
	name := "?"
	if n, ok := t.(*types.Named); ok {
		name = n.Obj().Name()
	}
	if ptr {
		return "(*" + pkg + name + ")." + fn.Name()
	}
	return "(" + pkg + name + ")." + fn.Name()
}

// displayName names an SSA function: its declared function or method, or,
// for a function literal, the named function that encloses it.
func displayName(fn *ssa.Function) string {
	if obj := funcObject(fn); obj != nil {
		return FuncName(obj)
	}
	outer := fn
	for outer.Parent() != nil {
		outer = outer.Parent()
	}
	if obj := funcObject(outer); obj != nil && outer != fn {
		return "func literal in " + FuncName(obj)
	}
	return strings.TrimSpace(fn.Name())
}
