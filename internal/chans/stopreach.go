package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// stopDepth is how many struct fields deep StopInReach looks from a value:
// l.js.opts.ctx is three.
const stopDepth = 3

// StopInReach reports whether the goroutine started at start, which sends
// on the channel mk made, can be told to stop by anything its caller
// hands in: a callback, a context or another channel among the maker's
// parameters (its receiver too) and the values the go statement passes or
// its closure captures, or a context or channel in a struct field a few
// steps into one of them (a callback deep in a configuration is not the
// caller talking to this goroutine). The channel itself, which the
// goroutine closes when it is done, is no stop, nor is another channel of
// its element type.
//
// A generator for which this is false (a zone transfer reading a
// connection, an iterator over a byte slice) gives its caller no way to
// say it has stopped reading: a fix needs a new API, and until then the
// caller's part of the contract is to read to the close.
func StopInReach(mk *ssa.MakeChan, start ssa.Instruction) bool {
	g, ok := start.(*ssa.Go)
	if !ok {
		return true // not a go statement: the pass cannot say what it sees
	}
	var vals []ssa.Value
	for _, p := range mk.Parent().Params {
		vals = append(vals, p)
	}
	for _, fv := range mk.Parent().FreeVars {
		vals = append(vals, fv)
	}
	vals = append(vals, g.Call.Args...)
	if c, ok := g.Call.Value.(*ssa.MakeClosure); ok {
		vals = append(vals, c.Bindings...)
	}
	for _, v := range vals {
		if sameElem(v.Type(), mk.Type()) {
			continue
		}
		if _, isFunc := v.Type().Underlying().(*types.Signature); isFunc || holdsStop(v.Type(), stopDepth, map[reached]bool{}) {
			return true
		}
	}
	return false
}

// sameElem reports whether t is a channel of the element type of the
// channel type made: the channel itself, whichever direction it is passed
// with, or the variable a closure captures it in (named results and
// conversions hide which value it is).
func sameElem(t, made types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem() // a captured variable
	}
	c, ok := t.Underlying().(*types.Chan)
	return ok && types.Identical(c.Elem(), made.Underlying().(*types.Chan).Elem())
}

// reached is a type met at a depth, so that a recursive type ends the walk.
type reached struct {
	t     types.Type
	depth int
}

// holdsStop reports whether a value of type t is, or holds within depth
// struct fields, a context or a channel.
func holdsStop(t types.Type, depth int, seen map[reached]bool) bool {
	if isContext(t) {
		return true
	}
	if seen[reached{t, depth}] {
		return false
	}
	seen[reached{t, depth}] = true
	switch u := t.Underlying().(type) {
	case *types.Chan:
		return true
	case *types.Pointer:
		return holdsStop(u.Elem(), depth, seen)
	case *types.Slice:
		return holdsStop(u.Elem(), depth, seen)
	case *types.Array:
		return holdsStop(u.Elem(), depth, seen)
	case *types.Map:
		return holdsStop(u.Elem(), depth, seen)
	case *types.Struct:
		if depth == 0 {
			return false
		}
		for i := range u.NumFields() {
			if holdsStop(u.Field(i).Type(), depth-1, seen) {
				return true
			}
		}
	}
	return false
}
