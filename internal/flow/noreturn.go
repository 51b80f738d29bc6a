package flow

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// noReturn lists functions and methods that never return to their caller.
// The facts of ctrlflow would find user-defined ones too, but stdlib and test
// helpers are what matter for "can the owner return without receiving": a
// path through t.Fatal or log.Fatal ends there.
var noReturn = map[string]bool{
	"os.Exit":                   true,
	"runtime.Goexit":            true,
	"log.Fatal":                 true,
	"log.Fatalf":                true,
	"log.Fatalln":               true,
	"log.Panic":                 true,
	"log.Panicf":                true,
	"log.Panicln":               true,
	"(*log.Logger).Fatal":       true,
	"(*log.Logger).Fatalf":      true,
	"(*log.Logger).Fatalln":     true,
	"(*log.Logger).Panic":       true,
	"(*log.Logger).Panicf":      true,
	"(*log.Logger).Panicln":     true,
	"(*testing.common).Fatal":   true,
	"(*testing.common).Fatalf":  true,
	"(*testing.common).FailNow": true,
	"(*testing.common).Skip":    true,
	"(*testing.common).Skipf":   true,
	"(*testing.common).SkipNow": true,
	"(testing.TB).Fatal":        true,
	"(testing.TB).Fatalf":       true,
	"(testing.TB).FailNow":      true,
	"(testing.TB).Skip":         true,
	"(testing.TB).Skipf":        true,
	"(testing.TB).SkipNow":      true,
	"(*testing.T).Fatal":        true,
	"(*testing.T).Fatalf":       true,
	"(*testing.T).FailNow":      true,
	"(*testing.B).Fatal":        true,
	"(*testing.B).Fatalf":       true,
	"(*testing.B).FailNow":      true,
	"(*testing.F).Fatal":        true,
	"(*testing.F).Fatalf":       true,
	"(*testing.F).FailNow":      true,
	"(*testing.T).Skip":         true,
	"(*testing.T).Skipf":        true,
	"(*testing.T).SkipNow":      true,
	"(*testing.B).Skip":         true,
	"(*testing.B).Skipf":        true,
	"(*testing.B).SkipNow":      true,
	"(*testing.F).Skip":         true,
	"(*testing.F).Skipf":        true,
	"(*testing.F).SkipNow":      true,
}

// noReturnNames holds the bare names of the functions in noReturn. The
// question is asked of every call the SSA builder and every lock walk see,
// and fn.FullName builds a string each time; a name not in this set cannot
// be in noReturn, so most calls are answered without building one.
var noReturnNames = func() map[string]bool {
	names := make(map[string]bool)
	for full := range noReturn {
		names[full[strings.LastIndex(full, ".")+1:]] = true
	}
	return names
}()

// NoReturnFunc reports whether fn never returns to its caller, for
// ssa.Program.SetNoReturn: the builder then ends the block at such a call.
func NoReturnFunc(fn *types.Func) bool {
	return noReturnNames[fn.Name()] && noReturn[fn.FullName()]
}

// NoReturn reports whether instr is a call that never returns, so a path
// through it ends without reaching a return.
func NoReturn(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	var fn *types.Func
	if call.Call.IsInvoke() {
		fn = call.Call.Method
	} else if callee := call.Call.StaticCallee(); callee != nil {
		fn, _ = callee.Object().(*types.Func)
	}
	return fn != nil && NoReturnFunc(fn)
}

// ends reports whether a path entering b ends inside it: b calls a function
// that never returns.
func ends(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if NoReturn(instr) {
			return true
		}
	}
	return false
}
