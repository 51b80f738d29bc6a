package verdict

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/locks"
)

// Outer is what a caller knows at a call that reaches the send: the locks
// it holds there, held for the whole call, and the guards that dominate
// the call, each with the locks held from its tests to the call.
// lockedsend passes it for the send its locked call reaches.
type Outer struct {
	Held   chans.Held
	Guards []chans.Guard
}

// OuterAt is the Outer of the call instr, made while held is held.
func OuterAt(idx *chans.Index, instr ssa.Instruction, held []locks.Lock) *Outer {
	return &Outer{Held: chans.HeldOf(held), Guards: idx.GuardsAcross(instr)}
}

// How much a guard excuses a send.
type excuse uint8

const (
	none    excuse = iota // the send's proof stands
	partial               // the audit tier, with what is missing
	alive                 // the receiver cannot have stopped at the send
)

// shutdownGuard weighs the guards of a send whose receiver r can stop:
// the tests of a shutdown flag or state (chans.Guards) that dominate the
// send, or the call that reaches it (outer). It returns safe when a guard
// shows r still running at the send:
//
//   - the tests and the send are one critical section of a lock, held by
//     the function or by every caller at every call (chans.HeldAcross);
//   - everything that can stop r (chans.Stoppers) runs only after a write
//     of a value the guard stops, made under a lock of the same class;
//   - nothing writes back a value the guard lets through.
//
// While the sender holds the lock that write has not happened, so
// neither has r's stop. Otherwise it returns what the proof lacks, for
// the audit tier, or "" when the guard excuses nothing:
//
//   - the lock is held across and every stopper of r is named, but some
//     is not shown to run after the write under that lock, and none is
//     shown to run without it (a stop request sent by a Close whose
//     callers are out of sight, a state the receiver sets itself): audit,
//     when some stopper does follow such a write or the package makes one
//     where it shuts down (chans.ShutdownWrite);
//   - a stopper runs without the lock, and without such a write first: a
//     race, nothing excused;
//   - no lock on any path, every caller in sight: nothing excused;
//   - a bool flag the package sets where it shuts down, tested with no
//     lock in sight (its callers may hold one), under a lock released
//     before the send, or with stoppers the pass cannot all name: audit,
//     as before, since the code that stops the receiver usually sets the
//     flag first, under the lock the sender holds. A state tested so is
//     no excuse, nor is a test of the caller's (outer) that no stopper of
//     r is shown to follow a write of.
//
// A state or flag tested with no lock on any path excuses nothing, except
// on a buffered channel (room: its least capacity, or a size set at run
// time, see Judge.room) when every stopper of r runs only after a write
// of a value the test stops: then only senders that passed the test
// before that write, more of them than the buffer holds, can block, and
// the finding goes to the audit tier. That holds too when callers out of
// sight may hold a lock, so it is weighed first.
func (j *Judge) shutdownGuard(instr ssa.Instruction, r chans.Site, outer *Outer, makes []*ssa.MakeChan) (missing string, safe bool) {
	guards := j.idx.GuardsAcross(instr)
	if outer != nil {
		for i := range guards {
			guards[i].Across = guards[i].Across.Join(outer.Held)
		}
		guards = append(guards, outer.Guards...)
	}
	room := j.room(makes)
	best := none
	for i, g := range guards {
		e, why := j.weigh(g, r, i >= len(guards)-outerCount(outer), room)
		if e > best {
			best, missing = e, why
		}
	}
	if best == alive {
		return "", true
	}
	return missing, false
}

func outerCount(outer *Outer) int {
	if outer == nil {
		return 0
	}
	return len(outer.Guards)
}

// weigh decides what the guard g excuses, for the receiver r. A guard of
// the caller (caller) tests a field of the caller's own, which may have
// nothing to do with r: it excuses the send only when some stopper of r
// is shown to follow a write of that field.
func (j *Judge) weigh(g chans.Guard, r chans.Site, caller bool, room string) (excuse, string) {
	// A flag the package sets where it shuts down, tested in the sending
	// function, is left to the audit tier when the pass cannot tell the
	// order, as it always was.
	unseenFlag := func() (excuse, string) {
		if !caller && g.IsFlag() && j.idx.ShutdownWrite(g) {
			return partial, "the send runs only while " + g.Describe() + ", and its receiver is not shown to stop before " + g.Field.Name() + " is set"
		}
		return none, ""
	}
	if !g.Across.Some {
		// Whatever locks callers out of sight hold, a stopper that runs
		// only after the write leaves only the senders racing that write
		// able to block.
		if room != "" && j.setBeforeStops(g, r) {
			return partial, fmt.Sprintf("the send runs only while %s, which is set before its receiver stops: only sends that pass that test just before it is set can block, and the buffer holds %s of them", g.Describe(), room)
		}
		if g.Across.Sight == chans.Full && !g.Outside {
			return none, "" // no lock on any path: the test orders nothing
		}
		return unseenFlag()
	}
	stoppers, named := j.idx.Stoppers(r)
	if !named {
		return unseenFlag()
	}
	ordered := !j.idx.Reopened(g)
	some := false
	for _, s := range stoppers {
		switch j.orderedBy(g, s) {
		case after:
			some = true
		case race:
			return none, ""
		default:
			ordered = false
		}
	}
	if ordered {
		return alive, ""
	}
	if !some && (caller || !j.idx.ShutdownWrite(g)) {
		return none, ""
	}
	return partial, "the send runs only while " + g.Describe() + ", under a lock, and its receiver is not shown to stop only after " +
		g.Field.Name() + " is set under that lock"
}

// room describes the room every make gives the channel, for a message:
// the least constant capacity ("8"), or the size as the source writes it
// when one is set at run time ("config.MaxPeers * 3", "8 or len(peers)").
// It is "" when some make is unbuffered, or a size has no text to quote.
// A size set at run time is taken as a buffer: its author sized it to a
// count (of peers, of workers), where one who wants no buffer writes no
// size at all.
func (j *Judge) room(makes []*ssa.MakeChan) string {
	if len(makes) == 0 {
		return ""
	}
	for _, mk := range makes {
		if n, ok := chans.ConstCapOK(mk); ok && n == 0 {
			return ""
		}
	}
	if n := leastCap(makes); n > 0 {
		return strconv.Itoa(n)
	}
	return strings.TrimPrefix(j.idx.SizesOf(makes), "cap ")
}

// setBeforeStops reports whether every stopper of r is named and runs
// after a write of a value the guard g stops, locked or not.
func (j *Judge) setBeforeStops(g chans.Guard, r chans.Site) bool {
	stoppers, named := j.idx.Stoppers(r)
	if !named || len(stoppers) == 0 {
		return false
	}
	for _, s := range stoppers {
		if len(j.idx.WrittenBefore(g, s)) == 0 {
			return false
		}
	}
	return true
}

// How a stopper relates to the guard's lock.
type order uint8

const (
	unseen order = iota // the pass cannot tell
	after               // it runs after a write the guard stops, under the guard's lock
	race                // it runs without the guard's lock, and without such a write first
)

// orderedBy says how the stopper s is ordered with the sends g guards.
func (j *Judge) orderedBy(g chans.Guard, s ssa.Instruction) order {
	writes := j.idx.WrittenBefore(g, s)
	for _, w := range writes {
		if j.idx.HeldAt(w).Shares(g.Across) {
			return after
		}
	}
	if len(writes) == 0 {
		if j.idx.HeldAt(s).Excludes(g.Across) {
			return race
		}
		return unseen
	}
	for _, w := range writes {
		if !j.idx.HeldAt(w).Excludes(g.Across) {
			return unseen
		}
	}
	return race
}
