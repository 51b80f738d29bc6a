package chans

import (
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// TestHookSend reports whether the send at instr, on a channel loaded from
// field f, is a test's hook: shipped code leaves f nil, and the send runs
// only when f is not nil.
//
//	func NewPeerQueue(ctx context.Context) *peerQueue { return newPeerQueue(ctx, nil) }
//
//	// newPeerQueue is also what the tests call, with a channel to watch.
//	func newPeerQueue(ctx context.Context, events chan<- queueEvent) *peerQueue {
//		return &peerQueue{ctx: ctx, events: events}
//	}
//
//	if q.events != nil {
//		q.events <- messageQueued // runs only in the tests
//	}
//
// In a shipped program the test never passes and the send never runs; the
// test that set the channel reads it as it needs to. Without the test the
// send is not a hook: a nil channel blocks for good, and that is left to
// the other rules.
func (x *Index) TestHookSend(instr ssa.Instruction, f *types.Var) bool {
	return x.nilInShippedCode(f) && nilTested(instr, f)
}

// nilInShippedCode reports whether field f holds nil in shipped code:
// other packages cannot store into it (it is unexported), and every store
// into it outside _test.go files stores nil or a parameter that holds nil
// there (see nilFromCallers).
func (x *Index) nilInShippedCode(f *types.Var) bool {
	if f == nil || f.Exported() || f.Pkg() != x.pkg.Pkg {
		return false
	}
	for _, st := range x.fieldSts[f] {
		if !InTestFile(st) && !x.nilFromCallers(st.Val, 0) {
			return false
		}
	}
	return true
}

// nilFromCallers reports whether v is nil whenever shipped code runs it: a
// nil constant, a conversion of one (chan T to chan<- T), or a parameter
// of a function that only tests hand a value. That function is one whose
// name says it serves tests (newTestServer, NewTestSampler,
// withHooksForTesting), or one whose every call in sight outside _test.go
// files passes nil, two calls deep: an unexported constructor that its
// exported twin calls with nil and the package's tests call with their
// channel.
func (x *Index) nilFromCallers(v ssa.Value, depth int) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return v.IsNil()
	case *ssa.ChangeType:
		return x.nilFromCallers(v.X, depth)
	case *ssa.Parameter:
		fn := v.Parent()
		if servesTests(fn.Name()) {
			return true
		}
		if depth >= 2 {
			return false
		}
		sites, ok := x.callers(fn)
		if !ok {
			return false
		}
		i := paramIndex(v)
		for _, site := range sites {
			if InTestFile(site) {
				continue
			}
			common := site.Common()
			if common.IsInvoke() || common.StaticCallee() != fn || i >= len(common.Args) ||
				!x.nilFromCallers(common.Args[i], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// servesTests reports whether a function's name marks it as support for
// tests: it ends in ForTest or ForTesting, or has Test as a word of its
// own (NewTestSampler, newTestServer), not as part of another
// (Latest, Testament).
func servesTests(name string) bool {
	for i := 0; i+4 <= len(name); i++ {
		if w := name[i : i+4]; w != "Test" && (i != 0 || w != "test") {
			continue
		}
		rest := strings.TrimPrefix(name[i+4:], "ing")
		if rest == "" || !unicode.IsLower(rune(rest[0])) {
			return true
		}
	}
	return false
}

// nilTested reports whether instr runs only after a test that field f is
// not nil, in a block that dominates it: if x.f != nil { ... }, or if x.f
// == nil { return }.
func nilTested(instr ssa.Instruction, f *types.Var) bool {
	b := instr.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond, ok := branch(d)
		if !ok {
			continue
		}
		cmp, ok := cond.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ || !comparesFieldWithNil(cmp, f) {
			continue
		}
		live := d.Succs[0] // the branch where f is not nil
		if cmp.Op == token.EQL {
			live = d.Succs[1]
		}
		if flow.EdgeDominates(d, live, b) {
			return true
		}
	}
	return false
}

// comparesFieldWithNil reports whether cmp compares a load of field f
// with nil.
func comparesFieldWithNil(cmp *ssa.BinOp, f *types.Var) bool {
	read, k := cmp.X, cmp.Y
	if c, ok := read.(*ssa.Const); ok && c.IsNil() {
		read, k = k, read
	}
	if c, ok := k.(*ssa.Const); !ok || !c.IsNil() {
		return false
	}
	load, ok := read.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	addr, ok := load.X.(*ssa.FieldAddr)
	return ok && FieldOf(addr.X.Type(), addr.Field, true) == f
}
