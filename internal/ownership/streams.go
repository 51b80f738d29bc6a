package ownership

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// streams finds the package's streams, walks each from its owner, then
// walks the loads of every place a stream or its Send was stored and gives
// those sends to the streams stored there. Streams without a send are
// dropped.
func (u *unit) streams() []*Stream {
	var all []*Stream
	for _, s := range u.sources() {
		w := u.newWalker()
		w.value(s.Value, w.hold(holds{kind: holdsStream}), u.ownerCtx(s.Owner))
		s.Sites, s.Stores = w.list, w.stores
		all = append(all, s)
	}
	keySites := u.walkStored(all)
	var out []*Stream
	for _, s := range all {
		for _, st := range s.Stores {
			u.mergeStored(s, st, keySites[st.Key])
		}
		if len(s.Sites) > 0 {
			sortSites(s.Sites)
			out = append(out, s)
		}
	}
	return out
}

func (u *unit) ownerCtx(owner *ssa.Function) ctx {
	if u.marked[owner] {
		return ctx{g: Goroutine{Kind: Marked, Fn: owner}}
	}
	return ctx{g: Goroutine{Kind: Owner, Fn: owner}}
}

// sources finds where streams enter the package: the stream parameters
// of functions called from outside it, and the results of calls that
// return a stream.
func (u *unit) sources() []*Stream {
	var out []*Stream
	for _, fn := range u.funcs {
		if len(fn.Blocks) == 0 {
			continue
		}
		if u.paramEntry(fn) {
			for i, p := range fn.Params {
				if i == 0 && fn.Signature.Recv() != nil {
					continue // a stream type's own methods do not own it
				}
				if matcher.IsStream(p.Type()) {
					out = append(out, &Stream{Owner: fn, Value: p, Name: p.Name()})
				}
			}
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(*ssa.Call); ok {
					out = append(out, u.opened(fn, call)...)
				}
			}
		}
	}
	return out
}

// paramEntry reports whether fn's parameters come from code the walk does
// not start from: fn is exported, used as a value, or has no static caller
// in the package (an interface call passes nothing the walk follows).
func (u *unit) paramEntry(fn *ssa.Function) bool {
	if obj, ok := fn.Object().(*types.Func); ok && obj.Exported() {
		return true
	}
	return u.taken[fn] || !u.hasStaticCaller(fn)
}

// opened returns the streams a call returns:
//
//	t1 = invoke client.Chat(ctx)             (pb.Chat_ChatClient, error)
//	t2 = extract t1 #0                       the stream
func (u *unit) opened(fn *ssa.Function, call *ssa.Call) []*Stream {
	if matcher.IsStream(call.Type()) {
		return []*Stream{{Owner: fn, Value: call}}
	}
	if _, ok := call.Type().(*types.Tuple); !ok {
		return nil
	}
	var out []*Stream
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && matcher.IsStream(ex.Type()) {
			out = append(out, &Stream{Owner: fn, Value: ex})
		}
	}
	return out
}

// walkStored walks every load of every place a stream or Send was stored
// in, from the loading function, and returns the sends found per place.
// Who runs the loading function is decided later, per stream, by roots.
func (u *unit) walkStored(all []*Stream) map[Key][]*Site {
	stored := make(map[Key]bool)
	var keys []Key
	for _, s := range all {
		for _, st := range s.Stores {
			if !stored[st.Key] {
				stored[st.Key] = true
				keys = append(keys, st.Key)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	loads := u.loads(stored)
	out := make(map[Key][]*Site)
	for _, k := range keys {
		w := u.newWalker()
		for _, v := range loads[k] {
			h := holdsStream
			if !matcher.IsStream(v.Type()) {
				if _, ok := v.Type().Underlying().(*types.Signature); !ok {
					continue
				}
				h = holdsSend
			}
			fn := v.Parent()
			w.value(v, w.hold(holds{kind: h}), ctx{g: Goroutine{Kind: anchor, Fn: fn}})
		}
		out[k] = w.list
	}
	return out
}

// loads finds the values loaded from the places in keys:
//
//	t2 = *t1 where t1 = &r.send [#1]          field send
//	t1 = s.stream [#0]                        field stream of a struct value
//	t3 = t2[id]  t5 = extract (next t4) #2    elements of a map
//	t4 = *t3 where t3 = &t2[i]                elements of a slice
//	t6 = <-t5                                 elements of a channel
func (u *unit) loads(keys map[Key]bool) map[Key][]ssa.Value {
	out := make(map[Key][]ssa.Value)
	add := func(k Key, ok bool, v ssa.Value) {
		if ok && keys[k] {
			out[k] = append(out[k], v)
		}
	}
	for _, fn := range u.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.UnOp:
					switch in.Op {
					case token.MUL:
						k, ok := u.keyOf(in.X)
						add(k, ok, in)
					case token.ARROW:
						k, ok := u.elemKey(in.X)
						add(k, ok, first(in, in.CommaOk))
					}
				case *ssa.Field:
					if f := u.field(in.X.Type(), in.Field); f != nil {
						add(Key{Obj: f}, true, in)
					}
				case *ssa.Lookup:
					k, ok := u.elemKey(in.X)
					add(k, ok, first(in, in.CommaOk))
				case *ssa.Index:
					k, ok := u.elemKey(in.X)
					add(k, ok, in)
				case *ssa.Next:
					if r, ok := in.Iter.(*ssa.Range); ok && !in.IsString {
						k, ok := u.elemKey(r.X)
						add(k, ok, extract(in, 2))
					}
				}
			}
		}
	}
	return out
}

// first returns the value of a comma-ok instruction: v itself, or its
// extracted first result.
func first(v ssa.Value, commaOk bool) ssa.Value {
	if !commaOk {
		return v
	}
	return extract(v, 0)
}

// extract returns the Extract of tuple element i of v, or v when there is
// none (the value is unused, and walking v finds nothing).
func extract(v ssa.Value, i int) ssa.Value {
	if refs := v.Referrers(); refs != nil {
		for _, ref := range *refs {
			if ex, ok := ref.(*ssa.Extract); ok && ex.Index == i {
				return ex
			}
		}
	}
	return v
}

// mergeStored gives s the sends made through the place st stored it in.
// A send made by whatever goroutine runs the loading function takes the
// roots of that function, as seen from s's owner.
func (u *unit) mergeStored(s *Stream, st *Store, sites []*Site) {
	for _, site := range sites {
		dst := s.site(site.Call, site.Callee)
		for _, snd := range site.Senders {
			if snd.G.Kind != anchor {
				dst.add(Sender{G: snd.G, At: snd.At, Store: st})
				continue
			}
			for _, r := range u.roots(snd.G.Fn, s.Owner, st.Key, st.Cross || st.Key.Elem) {
				at := r.at
				if at == nil {
					at = snd.At
				}
				g := r.g
				if g.Kind == Owner {
					g.Order = at
				}
				dst.add(Sender{G: g, At: at, Store: st})
			}
		}
	}
}

// site returns the stream's site for call, adding it if needed.
func (s *Stream) site(call ssa.CallInstruction, callee *types.Func) *Site {
	for _, old := range s.Sites {
		if old.Call == call {
			return old
		}
	}
	site := &Site{Call: call, Callee: callee}
	s.Sites = append(s.Sites, site)
	return site
}

func (site *Site) add(snd Sender) {
	for _, old := range site.Senders {
		if old.G == snd.G && old.At == snd.At {
			return
		}
	}
	site.Senders = append(site.Senders, snd)
}
