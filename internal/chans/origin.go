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
	Element              // a map, slice or array element
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
	Field  *types.Var     // Field
	Global *ssa.Global    // Global
	Param  *ssa.Parameter // Param
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
		add(Origin{Kind: extractKind(v)})
	case *ssa.Field:
		add(Origin{Kind: Field, Field: FieldOf(v.X.Type(), v.Field, false)})
	case *ssa.Index, *ssa.Lookup:
		add(Origin{Kind: Element})
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
		*out = append(*out, Origin{Kind: Element})
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
		return
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
