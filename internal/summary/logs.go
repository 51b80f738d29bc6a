package summary

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/logging"
)

// Logs is the fact that a function makes an event visible on some path:
// it calls a logger's output method, updates a metric or ends the process
// (logging.Call), itself, through the functions of its package it calls,
// or through a function of another package with this fact. A project's
// own wrapper around its logger (debuglog.Printf) is one:
//
//	func Printf(format string, args ...any) { logger.Printf(format, args...) }
//
// so a drop whose default calls it leaves a trace, though no table names
// the wrapper.
type Logs struct{}

func (*Logs) AFact() {}

func (*Logs) String() string { return "logs" }

// maxLogsDepth bounds how deep logsIn follows the package's calls, as
// silentdrop's own search does.
const maxLogsDepth = 4

// Logs reports whether the function f of another package has the Logs
// fact. It reads only what run stored, so a pass may ask while it holds
// the channel index.
func (r *Result) Logs(f *types.Func) bool { return r.importedLogs[f] }

// exportLogs exports fn's Logs fact when it makes an event visible.
func (r *Result) exportLogs(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	if r.logsIn(fn, 0, map[*ssa.Function]bool{}) {
		pass.ExportObjectFact(obj.Origin(), &Logs{})
	}
}

// logsIn reports whether fn, or a function of its package it calls (to
// maxLogsDepth), logs, counts or exits.
func (r *Result) logsIn(fn *ssa.Function, depth int, seen map[*ssa.Function]bool) bool {
	if depth > maxLogsDepth || seen[fn] || len(fn.Blocks) == 0 {
		return false
	}
	seen[fn] = true
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			cc := call.Common()
			if k := logging.Call(cc); k != logging.None {
				if k != logging.Quiet {
					return true
				}
				continue
			}
			if f := logging.Callee(cc); f != nil && r.importedLogs[f] {
				return true
			}
			if callee := cc.StaticCallee(); callee != nil && callee.Pkg == fn.Pkg && r.logsIn(callee, depth+1, seen) {
				return true
			}
		}
	}
	return false
}

// importedLogs reads the dependencies' Logs facts by object.
func importedLogs(pass *analysis.Pass) map[*types.Func]bool {
	out := make(map[*types.Func]bool)
	for _, of := range pass.AllObjectFacts() {
		if _, ok := of.Fact.(*Logs); ok && of.Object.Pkg() != pass.Pkg {
			if fn, ok := of.Object.(*types.Func); ok {
				out[fn] = true
			}
		}
	}
	return out
}
