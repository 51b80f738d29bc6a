package ownership

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// ParamUse is the fact exported for each exported function and method of
// a package with a stream or func parameter: what the function does with
// each such parameter. Bit i of a mask stands for the function's i-th
// parameter, the receiver first. A func parameter is judged as if it held a
// stream's Send: calling it is sending.
//
// The fact holds only integers and a bool, so its encoding is
// deterministic. Its presence also says that the function was analysed: a
// dependency's function without one is handled by policy.
type ParamUse struct {
	Sync   uint64 // sends on (calls) the parameter on the caller's goroutine
	Async  uint64 // from a goroutine it starts
	Shared uint64 // stores it where goroutines the caller does not control send on it
	Sender bool   // the function is marked //sendlint:sender
}

func (*ParamUse) AFact() {}

func (f *ParamUse) String() string {
	var parts []string
	for _, m := range []struct {
		name string
		mask uint64
	}{{"sync", f.Sync}, {"async", f.Async}, {"shared", f.Shared}} {
		if m.mask == 0 {
			continue
		}
		var idx []string
		for i := range 64 {
			if m.mask&(1<<i) != 0 {
				idx = append(idx, fmt.Sprint(i))
			}
		}
		parts = append(parts, m.name+"("+strings.Join(idx, ",")+")")
	}
	if f.Sender {
		parts = append(parts, "sender")
	}
	if len(parts) == 0 {
		return "unused"
	}
	return strings.Join(parts, " ")
}

func (f *ParamUse) bits(i int) paramBits {
	if i < 0 || i >= 64 {
		return paramBits{sender: f.Sender}
	}
	m := uint64(1) << i
	return paramBits{sync: f.Sync&m != 0, async: f.Async&m != 0, shared: f.Shared&m != 0, sender: f.Sender}
}

func (f *ParamUse) set(i int, b paramBits) {
	if i < 0 || i >= 64 {
		return
	}
	m := uint64(1) << i
	if b.sync {
		f.Sync |= m
	}
	if b.async {
		f.Async |= m
	}
	if b.shared {
		f.Shared |= m
	}
}

// exportFacts exports a ParamUse for every exported function and method
// with a stream or func parameter, and for every marked function.
func (u *unit) exportFacts(all []*Stream) {
	byParam := make(map[ssa.Value]*Stream)
	for _, s := range all {
		byParam[s.Value] = s
	}
	for _, fn := range u.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || obj.Pkg() != u.pass.Pkg || !obj.Exported() && !u.marked[fn] {
			continue
		}
		fact := &ParamUse{Sender: u.marked[fn]}
		relevant := fact.Sender
		for i, p := range fn.Params {
			switch {
			case isFunc(p.Type()):
				fact.set(i, u.paramUse(fn, i))
				relevant = true
			case matcher.IsStream(p.Type()):
				if s := byParam[p]; s != nil {
					fact.set(i, streamBits(s))
				}
				relevant = true
			}
		}
		if relevant {
			u.pass.ExportObjectFact(obj.Origin(), fact)
		}
	}
}

// paramUse says what a function of this package does with its func
// parameter i: the parameter is walked as if it held a stream's Send.
func (u *unit) paramUse(fn *ssa.Function, i int) paramBits {
	key := paramKey{fn, i}
	if b, ok := u.uses[key]; ok {
		return b
	}
	u.uses[key] = paramBits{} // a recursive question gets "does nothing"
	var b paramBits
	if i >= 0 && i < len(fn.Params) && isFunc(fn.Params[i].Type()) {
		w := u.newWalker()
		w.value(fn.Params[i], w.hold(holds{kind: holdsSend}), ctx{g: Goroutine{Kind: Owner, Fn: fn}})
		for _, site := range w.list {
			for _, snd := range site.Senders {
				b.merge(kindBits(snd.G.Kind))
			}
		}
		b.shared = b.shared || len(w.stores) > 0
	}
	b.sender = u.marked[fn]
	u.uses[key] = b
	return b
}

// streamBits summarises the senders of a stream parameter.
func streamBits(s *Stream) paramBits {
	var b paramBits
	for _, site := range s.Sites {
		for _, snd := range site.Senders {
			b.merge(kindBits(snd.G.Kind))
		}
	}
	return b
}

func kindBits(k Kind) paramBits {
	switch k {
	case Owner:
		return paramBits{sync: true}
	case Started, Marked:
		return paramBits{async: true}
	case Entry, Callback:
		return paramBits{shared: true}
	}
	return paramBits{}
}

func (b *paramBits) merge(o paramBits) {
	b.sync = b.sync || o.sync
	b.async = b.async || o.async
	b.shared = b.shared || o.shared
}

func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}
