package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// StopsOnTake reports whether the receiver r of ch, a channel of reply
// channels, stops only once it has taken a request from it: every path of
// its function to a return passes one of its receives of ch (recvs). Such
// a channel is a stop request, each sender waiting on the channel it sends
// for the answer:
//
//	func (db *DB) Close() error {
//		errc := make(chan error)
//		db.quit <- errc          // the receiver is there to take it
//		return <-errc
//	}
//
//	func (db *DB) meter() {
//		var errc chan error
//		for errc == nil && err == nil {
//			select {
//			case errc = <-db.quit:   // the request ends the loop
//			case <-timer.C:
//			}
//		}
//		if errc == nil {
//			errc = <-db.quit         // an error ended it: wait for the request
//		}
//		errc <- err
//	}
//
// The receiver is never gone before it took a request, so it is not gone
// while the first is on its way: only a request after the one that
// stopped it (a second Close) finds no one. A channel of other values may
// carry the stop request among the data it is there for, and a value sent
// after that request is stranded: it is not this shape.
func (x *Index) StopsOnTake(r Site, ch ssa.Value, recvs []Site) bool {
	if !carriesReplies(ch) {
		return false
	}
	fn := r.Func
	takes := make(map[ssa.Instruction]bool)
	selects := make(map[*ssa.Select]bool)
	edges := make(map[flow.Edge]int)
	for _, s := range recvs {
		if s.Func != fn {
			continue
		}
		if sel, ok := s.Instr.(*ssa.Select); ok {
			e, ok := CaseEdge(sel, s.State)
			if !ok {
				return false
			}
			edges[e] = 1
			selects[sel] = true
			continue
		}
		takes[s.Instr] = true
	}
	taken := func(v ssa.Value) bool {
		switch v := v.(type) {
		case *ssa.UnOp:
			return takes[v]
		case *ssa.Extract:
			if recv, ok := v.Tuple.(*ssa.UnOp); ok {
				return takes[recv]
			}
			sel, ok := v.Tuple.(*ssa.Select)
			return ok && v.Index >= 2 && selects[sel]
		}
		return false
	}
	return flow.MinCountTaking(fn.Blocks[0], -1, takes, edges, taken) >= 1
}

// carriesReplies reports whether ch is a channel of channels.
func carriesReplies(ch ssa.Value) bool {
	c, ok := ch.Type().Underlying().(*types.Chan)
	if !ok {
		return false
	}
	_, ok = c.Elem().Underlying().(*types.Chan)
	return ok
}
