package chans

import "golang.org/x/tools/go/ssa"

// WaitsForSenders returns the owner's deferred wait for a group of
// goroutines that counts every goroutine on which send runs, when the
// defer comes before start, the owner's instruction that leads to the
// send; or nil. Such an owner cannot return while one of those goroutines
// is blocked on the send: it waits for it, so a sender left behind hangs
// the owner too.
//
//	ch := make(chan *update, alpha)
//	defer q.wg.Wait()              // the wait
//	for {
//		select {
//		case u := <-ch:
//		...
//		}
//		if q.done {
//			return                 // runs the wait first
//		}
//		q.wg.Add(1)
//		go q.query(ch)             // defer q.wg.Done(); ch <- u
//	}
func (x *Index) WaitsForSenders(owner *ssa.Function, send, start ssa.Instruction) *ssa.Defer {
	roots := x.senderRoots(send.Parent(), 0, map[*ssa.Function]bool{})
	loops := x.Loops(owner)
	for _, g := range x.countingGroups(roots) {
		if !x.countsAll(g, roots) {
			continue
		}
		for _, b := range owner.Blocks {
			for _, instr := range b.Instrs {
				d, ok := instr.(*ssa.Defer)
				if !ok || loops.InLoop(b) || !dominates(d, start) {
					continue
				}
				if at, wait, ok := x.opAt(d, nil); ok && wait && at == g {
					return d
				}
			}
		}
	}
	return nil
}
