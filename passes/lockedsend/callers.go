package lockedsend

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/locks"
	"github.com/sendlint/sendlint/internal/summary"
	"github.com/sendlint/sendlint/internal/verdict"
)

// callerCycle records the cycle a caller closes when the channel goes only
// to the caller of an exported function that returns it (chans.ReturnedBy)
// and an exported function or method of the package takes a held lock in
// a mode the holder excludes. The caller reads the channel and calls the
// package's API as it goes, the way a loop over a pinner's pins unpins
// some of them: that call waits for the lock, and the sender, which holds
// the lock, waits for the caller's next receive.
//
//	go func() {
//		p.lock.RLock()
//		defer p.lock.RUnlock()
//		for _, k := range keys {
//			out <- k // the caller's Unpin waits for p.lock, and this for the caller
//		}
//	}()
//	return out
func (c *checker) callerCycle(r *root, states []sendState) bool {
	var returner *ssa.Function
	var ret *ssa.Return
	c.sum.Chans(func(idx *chans.Index) {
		for _, st := range states {
			for _, o := range idx.Origins(st.ch) {
				if o.Kind != chans.Made || returner != nil {
					continue
				}
				returner, ret = idx.ReturnedBy(idx.Uses(o.Make))
			}
		}
	})
	if returner == nil {
		return false
	}
	fn, a, l, ok := c.exportedTaker(r.rep.held)
	if !ok {
		return false
	}
	who, api, name := verdict.OwnerName(returner), verdict.OwnerName(fn), c.lockName(l)
	r.reason = "its receiver is the caller " + who + " returns it to, and a caller that calls " + api +
		" before it has read everything waits for " + name + " while this send waits for that caller"
	r.related = []analysis.RelatedInformation{
		{Pos: ret.Pos(), Message: who + " returns the channel here"},
		{Pos: a.Pos, Message: api + " takes " + name + " here" + through(a)},
	}
	return true
}

// exportedTaker returns the first exported function or method of the
// package, by position, that takes one of the held locks (by class) in a
// mode that conflicts with the hold, with where it takes it. Test code
// does not count: it is not the API a caller has.
func (c *checker) exportedTaker(held locks.Set) (*ssa.Function, summary.Acquisition, locks.Lock, bool) {
	classes := make(map[string]locks.Lock)
	for _, l := range held.Locks() {
		if k := locks.Class(l); k != "" {
			classes[k] = l
		}
	}
	var best *ssa.Function
	var bestAcq summary.Acquisition
	var bestLock locks.Lock
	for _, fn := range c.sum.SSA().SrcFuncs {
		obj := fn.Object()
		if obj == nil || !obj.Exported() || fn.Parent() != nil || inTestFile(c, fn.Pos()) {
			continue
		}
		for _, a := range c.sum.Acquires(fn) {
			l, ok := classes[a.Class]
			if !ok || !conflict(l.Mode == locks.Write, a.Write) {
				continue
			}
			if best == nil || c.before(fn.Pos(), best.Pos()) {
				best, bestAcq, bestLock = fn, a, l
			}
			break
		}
	}
	return best, bestAcq, bestLock, best != nil
}

func inTestFile(c *checker, pos token.Pos) bool {
	return strings.HasSuffix(c.pass.Fset.Position(pos).Filename, "_test.go")
}
