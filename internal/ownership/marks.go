package ownership

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/directive"
)

// markSenders matches each //sendlint:sender directive to the function it
// marks: the declared function whose doc comment holds it, or the function
// (declared or literal) whose func keyword is on the next line, as in
//
//	//sendlint:sender
//	go func() { ... }()
//
// It returns the marked functions and the directives that mark none.
func markSenders(pass *analysis.Pass, funcs []*ssa.Function, idx *directive.Index) (map[*ssa.Function]bool, []token.Pos) {
	marked := make(map[*ssa.Function]bool)
	if len(idx.Senders) == 0 {
		return marked, nil
	}
	bySyntax := make(map[ast.Node]*ssa.Function)
	for _, fn := range funcs {
		if syn := fn.Syntax(); syn != nil {
			bySyntax[syn] = fn
		}
	}
	pending := slices.Clone(idx.Senders)
	match := func(n ast.Node, doc *ast.CommentGroup) {
		fn := bySyntax[n]
		if fn == nil {
			return
		}
		line := pass.Fset.Position(n.Pos()).Line
		file := pass.Fset.File(n.Pos())
		pending = slices.DeleteFunc(pending, func(p token.Pos) bool {
			hit := doc != nil && doc.Pos() <= p && p < doc.End() ||
				pass.Fset.File(p) == file && pass.Fset.Position(p).Line == line-1
			if hit {
				marked[fn] = true
			}
			return hit
		})
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				match(n, n.Doc)
			case *ast.FuncLit:
				match(n, nil)
			}
			return len(pending) > 0
		})
	}
	return marked, pending
}

// stdlibUse says what standard library functions, which have no facts, do
// with a func argument. Those not listed are handled by policy.
func stdlibUse(obj *types.Func, i int) (paramBits, bool) {
	switch obj.FullName() {
	case "time.AfterFunc", "context.AfterFunc":
		return paramBits{async: i == 1}, true
	case "(*sync.WaitGroup).Go":
		return paramBits{async: i == 1}, true
	case "net/http.HandleFunc":
		return paramBits{shared: i == 1}, true
	case "(*net/http.ServeMux).HandleFunc":
		return paramBits{shared: i == 2}, true
	case "(*sync.Once).Do":
		return paramBits{sync: i == 1}, true
	}
	return paramBits{}, false
}
