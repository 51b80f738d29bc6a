package summary

import (
	"go/ast"
	"go/token"
	"go/types"
)

// sourceIndex finds the expressions that SSA positions point at, so that
// messages can quote the code as written: the channel of a send by its
// arrow, and the function of a call by its opening parenthesis.
type sourceIndex struct {
	chans map[token.Pos]ast.Expr
	calls map[token.Pos]*ast.CallExpr
}

func (r *Result) source() *sourceIndex {
	if r.src != nil {
		return r.src
	}
	x := &sourceIndex{chans: make(map[token.Pos]ast.Expr), calls: make(map[token.Pos]*ast.CallExpr)}
	for _, f := range r.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SendStmt:
				x.chans[n.Arrow] = n.Chan
			case *ast.CallExpr:
				x.calls[n.Lparen] = n
			}
			return true
		})
	}
	r.src = x
	return x
}

// Source returns the call expression whose opening parenthesis is at pos,
// or nil.
func (r *Result) Source(pos token.Pos) *ast.CallExpr {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.source().calls[pos]
}

// chanAt renders the channel of the send whose arrow is at pos.
func (x *sourceIndex) chanAt(pos token.Pos) string {
	if e, ok := x.chans[pos]; ok {
		return types.ExprString(e)
	}
	return "a channel"
}
