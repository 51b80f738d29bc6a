package silentdrop

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/streams"
)

// maxOwedDepth bounds how far owed follows a value back through the
// conversions, fields and literals it was built from.
const maxOwedDepth = 10

// owed reports whether the sent value is one someone handed to the
// function and waits on: it came from the function's caller (a parameter
// other than a method's receiver, or a value made from one: a composite
// literal holding it, a conversion, a field or element of it), or it was
// received (from a channel, or from a stream's Recv or Receive). A value
// the function computes from its own state (the receiver's fields, a
// clock, a global) is not owed: the code that computed it can compute it
// again, and a newer one usually follows.
//
//	func (c *client) reply(r Response)     // r is owed to reply's caller
//	case c.out <- Response{ID: req.ID}:     // holds a field of req: owed
//	case n.leadc <- leadChange{term: n.term}: // the receiver's own state: not owed
func (c *checker) owed(v ssa.Value) bool {
	return c.owedFrom(v, map[ssa.Value]bool{}, 0)
}

// owedFrom memoises owedValue in memo; a value met again while it is
// being judged (a phi of a loop) counts as not owed.
func (c *checker) owedFrom(v ssa.Value, memo map[ssa.Value]bool, depth int) bool {
	if owed, ok := memo[v]; ok || depth > maxOwedDepth {
		return owed
	}
	memo[v] = false
	owed := c.owedValue(v, memo, depth)
	memo[v] = owed
	return owed
}

func (c *checker) owedValue(v ssa.Value, seen map[ssa.Value]bool, depth int) bool {
	next := func(x ssa.Value) bool { return c.owedFrom(x, seen, depth+1) }
	switch x := v.(type) {
	case *ssa.Parameter:
		return !isReceiver(x) && c.paramOwed(x, seen, depth)
	case *ssa.FreeVar:
		b := c.idx.Binding(x)
		return b != nil && next(b)
	case *ssa.UnOp:
		switch x.Op {
		case token.ARROW:
			return true
		case token.MUL:
			return c.loadOwed(x.X, seen, depth+1)
		}
		return next(x.X) // -x, !x, ^x of an owed value
	case *ssa.Field:
		return next(x.X)
	case *ssa.FieldAddr:
		return next(x.X) // &req.Body
	case *ssa.IndexAddr:
		return next(x.X) // &events[i]
	case *ssa.Index:
		return next(x.X)
	case *ssa.Lookup:
		return next(x.X)
	case *ssa.Slice:
		return next(x.X)
	case *ssa.MakeInterface:
		return next(x.X)
	case *ssa.ChangeType:
		return next(x.X)
	case *ssa.ChangeInterface:
		return next(x.X)
	case *ssa.Convert:
		return next(x.X)
	case *ssa.SliceToArrayPointer:
		return next(x.X)
	case *ssa.TypeAssert:
		return next(x.X)
	case *ssa.Extract:
		return c.extractOwed(x, seen, depth+1)
	case *ssa.Alloc:
		return c.allocOwed(x, seen, depth+1)
	case *ssa.Phi:
		return c.phiOwed(x, seen, depth+1)
	case *ssa.Call:
		return streamRecv(x.Common()) // connect's Msg after Receive
	}
	return false
}

// paramOwed reports whether a parameter is owed to a caller. When every
// call of the function is in sight (an unexported helper), it is owed
// when some call hands it an owed value: a helper that is only given
// constants and state its callers compute drops nobody's value.
//
//	func sendNotification(ch chan<- bool, hasInterest bool)
//	sendNotification(ch, true)      // every call: not owed
func (c *checker) paramOwed(p *ssa.Parameter, seen map[ssa.Value]bool, depth int) bool {
	i := slices.Index(p.Parent().Params, p)
	sites, ok := c.idx.Callers(p.Parent())
	var viaValue []ssa.CallInstruction
	if !ok {
		sites, viaValue, ok = c.idx.MethodCalls(p.Parent())
	}
	if !ok || len(sites)+len(viaValue) == 0 {
		return true // a caller out of sight, or a handler's argument
	}
	owedAt := func(sites []ssa.CallInstruction, i int) bool {
		for _, site := range sites {
			args := site.Common().Args
			if i >= 0 && i < len(args) && c.owedFrom(args[i], seen, depth) {
				return true
			}
		}
		return false
	}
	// A method's receiver is args[0] of a direct call, as it is Params[0];
	// a call through a method value has no receiver argument.
	return owedAt(sites, i) || owedAt(viaValue, i-1)
}

// isReceiver reports whether p is a method's receiver: the object's own
// state, not a value its caller hands over.
func isReceiver(p *ssa.Parameter) bool {
	fn := p.Parent()
	return fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == p
}

// loadOwed reports whether a load from addr reads an owed value: a field
// or element of an owed value, or a variable (a composite literal, a
// captured variable) that is given one.
//
//	t2 = &t0.Body          // t0 is a parameter
//	t3 = *t2               // owed
func (c *checker) loadOwed(addr ssa.Value, seen map[ssa.Value]bool, depth int) bool {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		return c.owedFrom(a.X, seen, depth)
	case *ssa.IndexAddr:
		return c.owedFrom(a.X, seen, depth)
	case *ssa.Alloc:
		return c.owedFrom(a, seen, depth)
	case *ssa.FreeVar:
		b := c.idx.Binding(a)
		return b != nil && c.loadOwed(b, seen, depth)
	}
	return c.owedFrom(addr, seen, depth) // *p of an owed pointer
}

// allocOwed reports whether a variable or a composite literal holds an
// owed value: one is stored into it, or into one of its fields or
// elements.
//
//	t1 = local Response (complit)
//	t2 = &t1.ID
//	*t2 = t0.ID            // t0 is a parameter: the literal holds it
func (c *checker) allocOwed(a *ssa.Alloc, seen map[ssa.Value]bool, depth int) bool {
	for _, ref := range *a.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr == a && c.owedFrom(r.Val, seen, depth) {
				return true
			}
		case *ssa.FieldAddr, *ssa.IndexAddr:
			elem := r.(ssa.Value)
			for _, ref := range *elem.Referrers() {
				if st, ok := ref.(*ssa.Store); ok && st.Addr == elem && c.owedFrom(st.Val, seen, depth) {
					return true
				}
			}
		}
	}
	return false
}

// phiOwed reports whether every value that reaches the phi, other than
// the phi itself, is owed.
func (c *checker) phiOwed(p *ssa.Phi, seen map[ssa.Value]bool, depth int) bool {
	found := false
	for _, e := range p.Edges {
		if e == p {
			continue
		}
		if !c.owedFrom(e, seen, depth) {
			return false
		}
		found = true
	}
	return found
}

// extractOwed reports whether a value taken from a tuple is owed: a value
// received by a select case (v := <-ch) or a comma-ok receive, the result
// of a stream's Recv, or an element or key of an owed map.
//
//	t3 = select blocking [<-t1] (index int, ok bool, Request)
//	t4 = extract t3 #2     // the Request received: owed
func (c *checker) extractOwed(e *ssa.Extract, seen map[ssa.Value]bool, depth int) bool {
	switch t := e.Tuple.(type) {
	case *ssa.Select:
		return e.Index >= 2
	case *ssa.UnOp:
		return t.Op == token.ARROW && e.Index == 0
	case *ssa.Lookup:
		return e.Index == 0 && c.owedFrom(t.X, seen, depth)
	case *ssa.TypeAssert:
		return e.Index == 0 && c.owedFrom(t.X, seen, depth)
	case *ssa.Next:
		if r, ok := t.Iter.(*ssa.Range); ok && e.Index > 0 {
			return c.owedFrom(r.X, seen, depth)
		}
	case *ssa.Call:
		return e.Index == 0 && streamRecv(t.Common())
	}
	return false
}

// streamTypes recognises grpc and connect streams, whose Recv and
// Receive return a message a peer sent.
var streamTypes = mustMatcher()

func mustMatcher() *streams.Matcher {
	m, err := streams.NewMatcher(nil, nil)
	if err != nil {
		panic(err) // the default entries are constants of the streams package
	}
	return m
}

// streamRecv reports whether a call reads a message from a stream:
// Recv or Receive (grpc, connect's bidi streams) or Msg (connect's client
// stream, after Receive) on a value of a stream type.
func streamRecv(cc *ssa.CallCommon) bool {
	var name string
	var recv types.Type
	if cc.IsInvoke() {
		name, recv = cc.Method.Name(), cc.Value.Type()
	} else if fn := cc.StaticCallee(); fn != nil && fn.Signature.Recv() != nil {
		name, recv = fn.Name(), fn.Signature.Recv().Type()
	} else {
		return false
	}
	return (name == "Recv" || name == "Receive" || name == "Msg") && streamTypes.IsStream(recv)
}
