package chans

import (
	"cmp"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// Overfiller returns, for the send s of a goroutine that sends no other
// value on u's channel in the same run, a send of another run or of
// another path that can follow or precede a second send in its run, when
// the buffer has room for one value from every run: only such a run can
// take s's slot, so s blocks only after it did, and the bug is there.
//
//	errc := make(chan error, len(witnesses))
//	for _, w := range witnesses {
//		go func() {
//			if err := w.fetch(); err != nil {
//				errc <- err // one value per run: takes its own slot
//				return
//			}
//			if w.conflicts() {
//				errc <- errConflict // no return: the run goes on
//			}
//			errc <- nil // a second value, in another run's slot
//		}()
//	}
//
// The overfiller is the first such send in source order.
func (x *Index) Overfiller(u *Uses, s Site) (Site, bool) {
	if s.Start == nil || x.escapedAt(u) || !x.alone(u, s) {
		return Site{}, false
	}
	var over []Site
	for _, o := range u.Sends {
		if o.Start != nil && !x.alone(u, o) {
			over = append(over, o)
		}
	}
	if len(over) == 0 || !x.roomPerRun(u) {
		return Site{}, false
	}
	return slices.MinFunc(over, func(a, b Site) int { return cmp.Compare(a.Pos(), b.Pos()) }), true
}

// alone reports whether s sends the only value of u's channel on every
// path of its run that passes it: s is in the function its start runs,
// which makes every send of the run itself (a helper it calls may run
// many times a run), and no other send of the run reaches s or is reached
// from it, nor does s reach itself. A send of the owner is never alone:
// its run is the channel's whole life.
//
// The run's function may also defer, once and last, a closure that sends
// only while it recovers from a panic (recoveringSends). That send and a
// send of the body after which the body returns with nothing left that
// can panic (returnsQuietly) never both run: a run that panicked made no
// final send, and one that made it does not panic.
func (x *Index) alone(u *Uses, s Site) bool {
	body := x.runOf(s)
	if body == nil || flow.Reaches(s.Instr, s.Instr) {
		return false
	}
	rescue := x.rescueOf(u, s.Start, body)
	for _, o := range u.Sends {
		if o.Start != s.Start || o.Instr == s.Instr {
			continue
		}
		switch {
		case o.Func == s.Func:
			if flow.Reaches(o.Instr, s.Instr) || flow.Reaches(s.Instr, o.Instr) {
				return false
			}
		case rescue != nil && s.Func == body && o.Func == rescue:
			if !returnsQuietly(s.Instr) {
				return false
			}
		case rescue != nil && s.Func == rescue && o.Func == body:
			if !returnsQuietly(o.Instr) {
				return false
			}
		default:
			return false
		}
	}
	return s.Func == body || s.Func == rescue
}

// runOf returns the function s's start runs, or nil for a send of the
// owner or of a start that names no function.
func (x *Index) runOf(s Site) *ssa.Function {
	if s.Start == nil {
		return nil
	}
	return x.directCallee(s.Start)
}

// rescueOf returns the closure body defers once and last whose sends on
// u's channel, among those start reaches, all run only while it recovers
// from a panic, or nil.
func (x *Index) rescueOf(u *Uses, start ssa.Instruction, body *ssa.Function) *ssa.Function {
	runs := map[*ssa.Function]map[ssa.Instruction]int{body: {}}
	for _, o := range u.Sends {
		if o.Start != start {
			continue
		}
		if runs[o.Func] == nil {
			runs[o.Func] = make(map[ssa.Instruction]int)
		}
		runs[o.Func][o.Instr] = 1
	}
	for _, rr := range x.recoveringSends(runs) {
		if rr.body == body {
			return rr.deferred
		}
	}
	return nil
}

// roomPerRun reports whether the buffer would hold every value if each
// run of a goroutine or helper sent at most one.
func (x *Index) roomPerRun(u *Uses) bool {
	if n, ok := constCap(u.Make); ok {
		own := func(b *ssa.BasicBlock) int { return x.ownerTrips(u, b) }
		return x.countWith(u, u.Sends, own, 1) <= n
	}
	return x.coveredByOwnerLoop(u, 1, u.Make.Size)
}
