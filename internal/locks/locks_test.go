package locks_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/internal/locks"
)

// heldAnalyzer reports, at every call to a function named held, the keys
// of the locks held there.
var heldAnalyzer = &analysis.Analyzer{
	Name:     "held",
	Doc:      "report the locks held at each call to held()",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, fn := range pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs {
			locks.Analyze(fn).Walk(func(instr ssa.Instruction, s locks.State) bool {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Call.StaticCallee() == nil || call.Call.StaticCallee().Name() != "held" {
					return true
				}
				pass.Reportf(call.Pos(), "held: %s", describe(s))
				return true
			})
		}
		return nil, nil
	},
}

func describe(s locks.State) string {
	var keys []string
	for _, l := range s.Held.Locks() {
		k := l.Key
		if l.Mode == locks.Read {
			k += " (read)"
		}
		keys = append(keys, k)
	}
	out := strings.Join(keys, ", ")
	if out == "" {
		out = "none"
	}
	if s.Released {
		out += ", released"
	}
	return out
}

func TestHeld(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), heldAnalyzer, "locks")
}

// TestExported checks which lock classes code outside the package can
// take: a mutex kept in an exported field, a type that exports Lock by
// embedding one, an exported variable.
func TestExported(t *testing.T) {
	for class, want := range map[string]bool{
		"example.com/p.server.mu": false,
		"example.com/p.Server.Mu": true,
		"example.com/p.Server":    true,
		"example.com/p.consumer":  false,
		"example.com/p.mu":        false,
		"example.com/p.Mu":        true,
		"github.com/a/b.c/p.T.mu": false,
		"database/sql.DB.mu":      false,
	} {
		if got := locks.Exported(class); got != want {
			t.Errorf("Exported(%q) = %v, want %v", class, got, want)
		}
	}
}
