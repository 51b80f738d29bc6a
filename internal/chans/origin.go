package chans

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

const arrow = token.ARROW

// Kind classifies where a channel value comes from, as seen by the code that
// uses it.
type Kind int

const (
	Unknown  Kind = iota // a call result, a type assertion: not followed
	Nil                  // the nil channel
	Made                 // made by make in a function of this package
	Field                // loaded from a struct field
	Element              // a map, slice or array element; Field or Global names the container's home when known
	Global               // a package-level variable
	Param                // a parameter whose callers are not all visible
	Received             // received from another channel
)

func (k Kind) String() string {
	return [...]string{"unknown", "nil", "made", "field", "element", "global", "parameter", "received"}[k]
}

// Origin is one source of a channel value.
type Origin struct {
	Kind   Kind
	Make   *ssa.MakeChan  // Made
	Field  *types.Var     // Field, or the field holding an Element's container
	Global *ssa.Global    // Global, or the global holding an Element's container
	Param  *ssa.Parameter // Param
}

// Home returns, for an element, the origin of its container: the field or
// global that holds it, when known.
func (o Origin) Home() (Origin, bool) {
	switch {
	case o.Kind != Element:
	case o.Field != nil:
		return Origin{Kind: Field, Field: o.Field}, true
	case o.Global != nil:
		return Origin{Kind: Global, Global: o.Global}, true
	}
	return Origin{}, false
}

// Owned reports whether the value was made by a function of this package,
// so that its senders and receivers can be found.
func (o Origin) Owned() bool { return o.Kind == Made }

// maxDepth bounds how far Origins follows parameters into callers: deep
// chains are rare and each hop multiplies the work.
const maxDepth = 6

// Origins returns the sources of the channel value v, following copies,
// phis, local variables, closure captures and the parameters of functions
// whose callers are all visible.
//
// For a captured variable the IR looks like
//
//	t0 = new chan int (ch)          // in the owner
//	*t0 = make chan int 0:int
//	t2 = make closure f$1 [t0]
//	t0 = *ch                        // in f$1, ch is a free variable *chan int
//	send t0 <- 1:int
func (x *Index) Origins(v ssa.Value) []Origin {
	var out []Origin
	x.origins(v, make(map[ssa.Value]bool), 0, &out)
	return dedupe(out)
}

func (x *Index) origins(v ssa.Value, seen map[ssa.Value]bool, depth int, out *[]Origin) {
	if seen[v] || depth > maxDepth {
		return
	}
	seen[v] = true
	add := func(o Origin) { *out = append(*out, o) }
	switch v := v.(type) {
	case *ssa.MakeChan:
		add(Origin{Kind: Made, Make: v})
	case *ssa.Const:
		add(Origin{Kind: constKind(v)})
	case *ssa.ChangeType:
		x.origins(v.X, seen, depth, out)
	case *ssa.Convert:
		x.origins(v.X, seen, depth, out)
	case *ssa.Phi:
		for _, e := range v.Edges {
			x.origins(e, seen, depth, out)
		}
	case *ssa.UnOp:
		switch v.Op {
		case arrow:
			add(Origin{Kind: Received})
		case token.MUL:
			x.loadOrigins(v.X, seen, depth, out)
		default:
			add(Origin{})
		}
	case *ssa.Extract:
		switch k := extractKind(v); {
		case k != Element:
			add(Origin{Kind: k})
		case !x.localElement(containerOf(v.Tuple), lookedUp(v), seen, depth, out):
			x.elementOrigins(containerOf(v.Tuple), out)
		}
	case *ssa.Field:
		add(Origin{Kind: Field, Field: FieldOf(v.X.Type(), v.Field, false)})
	case *ssa.Index:
		x.elementOrigins(v.X, out)
	case *ssa.Lookup:
		if !x.localElement(v.X, true, seen, depth, out) {
			x.elementOrigins(v.X, out)
		}
	case *ssa.Parameter:
		x.paramOrigins(v, seen, depth, out)
	case *ssa.FreeVar:
		if b := x.binding(v); b != nil {
			x.origins(b, seen, depth, out)
		} else {
			add(Origin{})
		}
	default:
		add(Origin{})
	}
}

// extractKind classifies a value taken from a tuple: v, ok := <-ch;
// v, ok := m[k]; and the key or value of a range over a map.
func extractKind(e *ssa.Extract) Kind {
	switch t := e.Tuple.(type) {
	case *ssa.UnOp:
		if t.Op == arrow {
			return Received
		}
	case *ssa.Lookup, *ssa.Next:
		return Element
	}
	return Unknown
}

func constKind(c *ssa.Const) Kind {
	if c.Value == nil || c.Value.Kind() == constant.Unknown {
		return Nil
	}
	return Unknown
}

// loadOrigins follows a load *addr to what was stored there.
func (x *Index) loadOrigins(addr ssa.Value, seen map[ssa.Value]bool, depth int, out *[]Origin) {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		*out = append(*out, Origin{Kind: Field, Field: FieldOf(a.X.Type(), a.Field, true)})
	case *ssa.IndexAddr:
		x.elementOrigins(a.X, out)
	case *ssa.Global:
		*out = append(*out, Origin{Kind: Global, Global: a})
	case *ssa.Alloc:
		stores := x.storesTo(a)
		if len(stores) == 0 {
			*out = append(*out, Origin{})
		}
		for _, val := range stores {
			x.origins(val, seen, depth, out)
		}
	case *ssa.FreeVar:
		if b := x.binding(a); b != nil {
			x.loadOrigins(b, seen, depth, out)
		} else {
			*out = append(*out, Origin{})
		}
	default:
		*out = append(*out, Origin{})
	}
}

// elementOrigins records an element of the container value c: a map, slice
// or array (or a pointer to an array). When the container is held in a
// struct field or a package-level variable, the element is named by that
// home, so that what is stored into one element and what is loaded from
// another meet, as they do for fields:
//
//	t1 = &s.requestsToClients           // registration
//	t2 = *t1
//	t2[t3] = t4                         // t4 = make chan Response 1000:int
//	t5 = *t1                            // reply
//	t6 = t5[t7],ok
//	t8 = extract t6 #0
//	send t8 <- t9
func (x *Index) elementOrigins(c ssa.Value, out *[]Origin) {
	found := false
	for _, h := range x.homes(c) {
		*out = append(*out, Origin{Kind: Element, Field: h.Field, Global: h.Global})
		found = true
	}
	if !found {
		*out = append(*out, Origin{Kind: Element})
	}
}

// homes returns the fields and globals a container value is loaded from.
// An array field is addressed in place (&s.arr[i]), a map or slice field is
// loaded first.
func (x *Index) homes(c ssa.Value) []Origin {
	var out []Origin
	switch c := c.(type) {
	case *ssa.FieldAddr:
		if f := FieldOf(c.X.Type(), c.Field, true); f != nil {
			out = append(out, Origin{Kind: Field, Field: f})
		}
		return out
	case *ssa.Global:
		return []Origin{{Kind: Global, Global: c}}
	}
	for _, o := range x.Origins(c) {
		if (o.Kind == Field && o.Field != nil) || o.Kind == Global {
			out = append(out, o)
		}
	}
	return out
}

// localElement follows a value looked up in a local map (see
// localMapValues) to the values stored into it, and reports whether it
// did. A range over the map is not followed: its key and value come from
// different stores.
func (x *Index) localElement(m ssa.Value, isValue bool, seen map[ssa.Value]bool, depth int, out *[]Origin) bool {
	if _, ok := m.(*ssa.MakeMap); !ok || !isValue {
		return false
	}
	vals, ok := localMapValues(m)
	if !ok {
		return false
	}
	for _, val := range vals {
		x.origins(val, seen, depth, out)
	}
	return true
}

// lookedUp reports whether e is the value of v, ok := m[k].
func lookedUp(e *ssa.Extract) bool {
	_, ok := e.Tuple.(*ssa.Lookup)
	return ok && e.Index == 0
}

// localMapValues returns the values stored into a map made in this
// function that never leaves it: it is only read, updated, ranged over,
// measured and deleted from, so what is taken out of it is what was put
// in. A map stored, captured, passed or returned may be filled elsewhere:
// false.
//
//	pending := make(map[uint32]chan State)
//	pending[id] = tr.done                   // the values: tr.done
//	if done, ok := pending[id]; ok { ... }  // done is one of them
func localMapValues(m ssa.Value) ([]ssa.Value, bool) {
	mk, ok := m.(*ssa.MakeMap)
	if !ok {
		return nil, false
	}
	var vals []ssa.Value
	for _, ref := range *mk.Referrers() {
		switch r := ref.(type) {
		case *ssa.MapUpdate:
			if r.Map != mk {
				return nil, false
			}
			vals = append(vals, r.Value)
		case *ssa.Lookup:
			if r.X != mk {
				return nil, false
			}
		case *ssa.Range, *ssa.DebugRef:
		case *ssa.Call:
			b, ok := r.Call.Value.(*ssa.Builtin)
			if !ok || b.Name() != "delete" && b.Name() != "len" && b.Name() != "clear" {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return vals, true
}

// containerOf returns the container of a tuple whose first value is an
// element: v, ok := m[k], and the key and value of a range over a map.
func containerOf(t ssa.Value) ssa.Value {
	switch t := t.(type) {
	case *ssa.Lookup:
		return t.X
	case *ssa.Next:
		if r, ok := t.Iter.(*ssa.Range); ok {
			return r.X
		}
	}
	return nil
}

// storesTo returns the values stored into a local variable, including
// stores made by closures that capture it.
func (x *Index) storesTo(addr ssa.Value) []ssa.Value {
	var vals []ssa.Value
	for _, ref := range *addr.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr == addr {
				vals = append(vals, r.Val)
			}
		case *ssa.MakeClosure:
			for i, b := range r.Bindings {
				if b == addr {
					vals = append(vals, x.storesTo(r.Fn.(*ssa.Function).FreeVars[i])...)
				}
			}
		}
	}
	return vals
}

// Binding returns the value a closure's free variable is bound to, when the
// closure is made in exactly one place, and nil otherwise.
func (x *Index) Binding(fv *ssa.FreeVar) ssa.Value { return x.binding(fv) }

// binding returns the value a closure's free variable is bound to, when the
// closure is made in exactly one place.
func (x *Index) binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	sites := x.closures[fn]
	if len(sites) != 1 {
		return nil
	}
	for i, f := range fn.FreeVars {
		if f == fv {
			return sites[0].Bindings[i]
		}
	}
	return nil
}

// paramOrigins resolves a parameter through the call sites of its function
// when they are all visible, and otherwise reports it as a parameter.
func (x *Index) paramOrigins(p *ssa.Parameter, seen map[ssa.Value]bool, depth int, out *[]Origin) {
	fn := p.Parent()
	sites, ok := x.callers(fn)
	if !ok || len(sites) == 0 {
		*out = append(*out, Origin{Kind: Param, Param: p})
		// Callers outside the package are unknown, but those inside it
		// are not: a constructor exported for tests and called here
		// with the package's own channel (NewBlockPool(..., errorsCh))
		// still has that channel as one of its origins.
		sites = x.calls[fn]
		if len(sites) == 0 || fn.Pkg != x.pkg {
			return
		}
	}
	i := paramIndex(p)
	for _, site := range sites {
		args := site.Common().Args
		if i < 0 || i >= len(args) {
			*out = append(*out, Origin{})
			continue
		}
		x.origins(args[i], seen, depth+1, out)
	}
}

func paramIndex(p *ssa.Parameter) int {
	for i, q := range p.Parent().Params {
		if q == p {
			return i
		}
	}
	return -1
}

func dedupe(in []Origin) []Origin {
	var out []Origin
	for _, o := range in {
		dup := false
		for _, p := range out {
			if p == o {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, o)
		}
	}
	return out
}
