package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// ReplySlot reports whether the send at instr on ch answers a request
// through a registry of one-shot reply slots, so that it cannot block:
//
//	req := make(chan result, 1)    // a fresh slot per request
//	s.pending[id] = req
//	...
//	req, ok := s.pending[id]       // the answering side
//	delete(s.pending, id)
//	req <- res                     // cannot block
//
// or, failing every request at once:
//
//	for id, req := range s.pending {
//		delete(s.pending, id)
//		req <- errClosed
//	}
//
// The slot is taken out of the registry before the send, so no one else
// answers it, and every slot put into the registry is a channel made for
// that insertion with room for a value. The same holds for a slot that is
// a field of a request struct made with it, looked up and deleted the same
// way (c := s.calls[id]; delete(s.calls, id); c.done <- err).
//
// The registry must be a map held in an unexported field or global, so
// that every insertion is in this package. A per-client channel registered
// once per request (the router's shared tr.responses) is not a fresh slot,
// and stays an ordinary send.
func (x *Index) ReplySlot(instr ssa.Instruction, ch ssa.Value) bool {
	from, key, field := slotLookup(ch)
	if from == nil {
		return false
	}
	m := registry(from)
	if m == nil || !x.deletedBefore(m, key, instr) {
		return false
	}
	inserts := x.inserts[m]
	if len(inserts) == 0 {
		return false
	}
	for _, ins := range inserts {
		if !x.freshSlot(ins, field) {
			return false
		}
	}
	return field == nil || x.onlyAnsweredOnce(m, field)
}

// onlyAnsweredOnce reports whether every send on field in the package
// answers a request taken out of registry m: then each request struct's
// slot receives one value.
func (x *Index) onlyAnsweredOnce(m any, field *types.Var) bool {
	ok := true
	x.sendsOnField(field, func(instr ssa.Instruction, ch ssa.Value) {
		from, key, f := slotLookup(ch)
		if from == nil || f != field || registry(from) != m || !x.deletedBefore(m, key, instr) {
			ok = false
		}
	})
	return ok
}

// slotLookup finds the map a reply channel is looked up in, and its key:
// the value of m[k] itself, or field f of the struct m[k] points to; or
// the value of an entry a range over m visits, with the entry's key.
func slotLookup(ch ssa.Value) (m, key ssa.Value, field *types.Var) {
	if load, ok := ch.(*ssa.UnOp); ok && load.Op == token.MUL {
		fa, ok := load.X.(*ssa.FieldAddr)
		if !ok {
			return nil, nil, nil
		}
		field, ch = FieldOf(fa.X.Type(), fa.Field, true), fa.X
		if field == nil {
			return nil, nil, nil
		}
	}
	e, ok := ch.(*ssa.Extract)
	if !ok {
		if lookup, ok := ch.(*ssa.Lookup); ok {
			return lookup.X, lookup.Index, field
		}
		return nil, nil, nil
	}
	switch t := e.Tuple.(type) {
	case *ssa.Lookup:
		if e.Index == 0 {
			return t.X, t.Index, field
		}
	case *ssa.Next:
		if k := rangeKey(t); e.Index == 2 && k != nil && !t.IsString {
			return t.Iter.(*ssa.Range).X, k, field
		}
	}
	return nil, nil, nil
}

// rangeKey returns the key a range over a map extracts from next, or nil
// when the loop drops it.
func rangeKey(next *ssa.Next) ssa.Value {
	for _, ref := range *next.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == 1 {
			return e
		}
	}
	return nil
}

// registry identifies a map by where it is held: an unexported struct field
// or package-level variable. Other maps have no identity across functions.
func registry(m ssa.Value) any {
	load, ok := m.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	switch addr := load.X.(type) {
	case *ssa.FieldAddr:
		if f := FieldOf(addr.X.Type(), addr.Field, true); f != nil && !f.Exported() {
			return f
		}
	case *ssa.Global:
		if !addr.Object().Exported() {
			return addr.Object()
		}
	}
	return nil
}

// deletedBefore reports whether instr's function deletes key from registry
// m on every path to instr.
func (x *Index) deletedBefore(m any, key ssa.Value, instr ssa.Instruction) bool {
	for _, d := range x.deletes[m] {
		if d.Parent() == instr.Parent() && SameValue(d.Call.Args[1], key) && before(d, instr) {
			return true
		}
	}
	return false
}

// before reports whether a runs on every path to b, earlier.
func before(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, instr := range a.Block().Instrs {
		switch instr {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// freshSlot reports whether an insertion stores a slot made for it: the
// inserted channel (or, for field, the struct whose field is the channel)
// is made in the inserting function, once per insertion, with a constant
// capacity of at least 1, and nothing in the package sends on it directly.
func (x *Index) freshSlot(ins *ssa.MapUpdate, field *types.Var) bool {
	var makes []*ssa.MakeChan
	if field == nil {
		for _, o := range x.Origins(ins.Value) {
			if o.Kind != Made {
				return false
			}
			makes = append(makes, o.Make)
		}
	} else {
		var ok bool
		if makes, ok = x.structSlot(ins.Value, field); !ok {
			return false
		}
	}
	for _, mk := range makes {
		if n, ok := constCap(mk); !ok || n < 1 || mk.Parent() != ins.Parent() {
			return false
		}
		if x.Loops(mk.Parent()).RepeatsWithout(ins.Block(), mk.Block()) || len(x.Uses(mk).Sends) > 0 {
			return false
		}
	}
	return len(makes) > 0
}

// structSlot finds the channels stored into field of a struct allocated in
// the inserting function: &call{done: make(chan error, 1)}.
func (x *Index) structSlot(v ssa.Value, field *types.Var) ([]*ssa.MakeChan, bool) {
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var makes []*ssa.MakeChan
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || FieldOf(fa.X.Type(), fa.Field, true) != field {
			continue
		}
		for _, ref := range *fa.Referrers() {
			st, ok := ref.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			for _, o := range x.Origins(st.Val) {
				if o.Kind != Made {
					return nil, false
				}
				makes = append(makes, o.Make)
			}
		}
	}
	return makes, len(makes) > 0
}

// SingleValue reports whether field f holds a result slot: a channel with
// room for exactly one value, made with each object that holds it, and sent
// on only outside loops. Such a field carries one answer per object (a done
// signal, an error, a final response), and the one value waits in the
// buffer for whoever is left to read it:
//
//	m := &message{closeC: make(chan bool, 1)}   // one slot per message
//	func (m *message) CloseWithError(err error) {
//		m.closeC <- err == nil                  // not reported
//	}
//
// A per-client queue is made once per client and carries many values: a
// capacity above one, a make in another function than the store (the
// router's feedbackChan, stored into each request), or a send in a loop
// keeps it an ordinary channel, and so does a sending function the
// package itself calls from a loop (a discovery step its monitor runs on
// every tick). Otherwise the rule trusts that a method sending on such a
// slot runs once per object; a slot refilled by repeated calls from
// outside is missed.
func (x *Index) SingleValue(instr ssa.Instruction, f *types.Var) bool {
	if f == nil || f.Exported() || !x.freshPerObject(f) {
		return false
	}
	for _, mk := range x.FieldMakes(f) {
		if n, _ := constCap(mk); n != 1 {
			return false
		}
	}
	if x.firstStepOnly(f) {
		return true // one value per object, from whichever sender is first
	}
	// Every sending function sends outside loops, and none is a function
	// that makes the slot: a send next to the make is FreshField's to
	// judge, before and after the object is shared. The function of this
	// send sends at most once per call.
	storing := make(map[*ssa.Function]bool)
	for _, st := range x.fieldSts[f] {
		if c, ok := st.Val.(*ssa.Const); !ok || !c.IsNil() {
			storing[st.Parent()] = true
		}
	}
	here := make(map[ssa.Instruction]int)
	ok := true
	x.sendsOnField(f, func(send ssa.Instruction, _ ssa.Value) {
		fn := send.Parent()
		if storing[fn] || x.Loops(fn).InLoop(send.Block()) {
			ok = false
		}
		if fn == instr.Parent() {
			here[send] = 1
		}
	})
	once := func(*ssa.BasicBlock) int { return 1 }
	return ok && !x.calledInLoop(instr.Parent()) && flow.MaxCount(instr.Parent(), here, once, Many) <= 1
}

// calledInLoop reports whether fn can run many times per object: the
// package calls it from a loop, or from a goroutine or function literal
// that runs many times: a worker started in a loop, or a literal made or
// called in one, that calls the method once:
//
//	for _, k := range keys {
//		go func() { t.record(call(k)) }() // record runs once per key
//	}
//
// Callers are followed up only through literals, every run of which is in
// their maker's sight, and through go statements. A named function that a
// loop elsewhere calls may take turns the pass does not see (a writer
// started only while no other is running).
func (x *Index) calledInLoop(fn *ssa.Function) bool {
	return x.repeated(fn, make(map[*ssa.Function]bool))
}

// repeated reports whether a call of fn is in a loop or in a function
// that runs many times (repeatedRun). seen holds the functions already
// asked about: a chain that comes back to one adds nothing.
func (x *Index) repeated(fn *ssa.Function, seen map[*ssa.Function]bool) bool {
	sites, _ := x.callers(fn)
	for _, c := range sites {
		if x.Loops(c.Parent()).InLoop(c.Block()) || x.repeatedRun(c.Parent(), seen) {
			return true
		}
	}
	return false
}

// repeatedRun reports whether fn, which calls what repeated asks about,
// runs many times: a literal made in a loop or run by a repeated call, or
// a function that a go statement starts so.
func (x *Index) repeatedRun(fn *ssa.Function, seen map[*ssa.Function]bool) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	if fn.Parent() != nil {
		for _, mc := range x.closures[fn] {
			if x.Loops(mc.Parent()).InLoop(mc.Block()) || x.repeatedRun(mc.Parent(), seen) {
				return true
			}
		}
		return x.repeated(fn, seen)
	}
	sites, _ := x.callers(fn)
	for _, c := range sites {
		if _, isGo := c.(*ssa.Go); isGo && (x.Loops(c.Parent()).InLoop(c.Block()) || x.repeatedRun(c.Parent(), seen)) {
			return true
		}
	}
	return false
}

// freshPerObject reports whether every store into f stores a buffered
// channel made by the storing function for that store alone.
func (x *Index) freshPerObject(f *types.Var) bool {
	stores := x.fieldSts[f]
	for _, st := range stores {
		if c, ok := st.Val.(*ssa.Const); ok && c.IsNil() {
			continue // clearing the field after its one value
		}
		origins := x.Origins(st.Val)
		if len(origins) == 0 {
			return false
		}
		for _, o := range origins {
			if o.Kind != Made || o.Make.Parent() != st.Parent() {
				return false
			}
			if n, ok := constCap(o.Make); !ok || n < 1 {
				return false
			}
			if x.Loops(st.Parent()).RepeatsWithout(st.Block(), o.Make.Block()) {
				return false
			}
		}
	}
	return len(stores) > 0
}
