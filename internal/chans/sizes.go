package chans

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// maxSizeText bounds the source text of a size a message quotes.
const maxSizeText = 40

// SizesOf describes the capacities of the make sites for a message:
// "cap 1000", "unbuffered", "cap 1, 100 or 1000" when several makes feed
// one field, and a size that is not a constant as the source writes it:
// "cap len(pending)", "cap hcs.maxConnNum", "cap 1 or len(peers)". A
// reader then sees at once what the buffer was sized to. It is "" when
// there is no make, or a size has no source text in this package's files,
// or one too long to quote.
func (x *Index) SizesOf(makes []*ssa.MakeChan) string {
	var consts []int
	var texts []string
	for _, mk := range makes {
		if n, ok := ConstCapOK(mk); ok {
			if !slices.Contains(consts, n) {
				consts = append(consts, n)
			}
			continue
		}
		e := x.sizeExpr(mk)
		if e == nil {
			return ""
		}
		t := types.ExprString(e)
		if len(t) > maxSizeText {
			return ""
		}
		if !slices.Contains(texts, t) {
			texts = append(texts, t)
		}
	}
	switch {
	case len(consts)+len(texts) == 0:
		return ""
	case len(texts) == 0 && len(consts) == 1 && consts[0] == 0:
		return "unbuffered"
	}
	slices.Sort(consts)
	slices.Sort(texts)
	var names []string
	for _, n := range consts {
		names = append(names, itoa(n))
	}
	return "cap " + join(append(names, texts...))
}

// sizeExpr returns the size argument of the make call mk was built from,
// when it is in this package's files.
func (x *Index) sizeExpr(mk *ssa.MakeChan) ast.Expr {
	if x.sizes == nil {
		x.sizes = make(map[token.Pos]ast.Expr)
		for _, f := range x.files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 2 && x.isMakeChan(call) {
					x.sizes[call.Lparen] = call.Args[1]
				}
				return true
			})
		}
	}
	return x.sizes[mk.Pos()]
}

// isMakeChan reports whether call is the builtin make of a channel.
func (x *Index) isMakeChan(call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "make" || x.info == nil {
		return false
	}
	if _, builtin := x.info.Uses[id].(*types.Builtin); !builtin {
		return false
	}
	tv, ok := x.info.Types[call]
	if !ok {
		return false
	}
	_, isChan := tv.Type.Underlying().(*types.Chan)
	return isChan
}
