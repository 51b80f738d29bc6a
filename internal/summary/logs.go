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

// Logs reports whether the function f of another package has the Logs
// fact. It reads only what run stored, so a pass may ask while it holds
// the channel index.
func (r *Result) Logs(f *types.Func) bool { return r.importedLogs[f] }

// exportLogs exports fn's Logs fact when it makes an event visible.
func (r *Result) exportLogs(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	if r.logsIn(fn) {
		pass.ExportObjectFact(obj.Origin(), &Logs{})
	}
}

// logsIn reports whether fn, or a function of its package it calls, logs,
// counts or exits. Answers are memoised; a function met again while its
// answer is being worked out (a cycle of calls) counts as not logging.
func (r *Result) logsIn(fn *ssa.Function) bool {
	if v, ok := r.logs[fn]; ok {
		return v
	}
	if r.logs == nil {
		r.logs = make(map[*ssa.Function]bool)
	}
	r.logs[fn] = false
	v := r.scanLogs(fn)
	r.logs[fn] = v
	return v
}

func (r *Result) scanLogs(fn *ssa.Function) bool {
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
			if callee := cc.StaticCallee(); callee != nil && callee.Pkg == fn.Pkg && r.logsIn(callee) {
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
