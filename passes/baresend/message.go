package baresend

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/verdict"
)

// sendExprs maps the arrow of every send statement to its channel
// expression, so messages can name the channel as the source spells it.
func sendExprs(files []*ast.File) map[token.Pos]ast.Expr {
	m := make(map[token.Pos]ast.Expr)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SendStmt); ok {
				m[s.Arrow] = s.Chan
			}
			return true
		})
	}
	return m
}

// exprString names the channel sent on at the arrow pos.
func (c *checker) exprString(pos token.Pos, ch ssa.Value) string {
	if e, ok := c.exprs[pos]; ok {
		return types.ExprString(e)
	}
	return ch.Name()
}

// chanDesc describes the channel of a send: "tr.responses (chan Response,
// cap 1000)", "results (chan reply, cap len(peers))". The capacity is left
// out when other packages may make the channel too.
func (c *checker) chanDesc(pos token.Pos, ch ssa.Value, v verdict.Verdict) string {
	desc := types.TypeString(ch.Type(), c.qualifier)
	if caps := c.idx.SizesOf(v.Makes); caps != "" && !v.MadeElsewhere {
		desc += ", " + caps
	}
	return fmt.Sprintf("%s (%s)", c.exprString(pos, ch), desc)
}

// qualifier names other packages by name, as source code does:
// chan *etcdserverpb.WatchResponse, not its full import path.
func (c *checker) qualifier(p *types.Package) string {
	if p == c.pass.Pkg {
		return ""
	}
	return p.Name()
}

// joinNames joins names as prose: "a", "a or b", "a, b or c".
func joinNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
