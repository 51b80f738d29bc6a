package triage

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// sources parses the module's files on demand, to read what a dump does
// not say: whether a select a goroutine waits in has a send case, and, in
// a debug=1 profile, which channel operation a line holds.
type sources struct {
	fset  *token.FileSet
	files map[string]*ast.File // nil when the file does not parse
}

func newSources() *sources {
	return &sources{fset: token.NewFileSet(), files: make(map[string]*ast.File)}
}

func (s *sources) file(name string) *ast.File {
	f, ok := s.files[name]
	if !ok {
		f, _ = parser.ParseFile(s.fset, name, nil, parser.SkipObjectResolution)
		s.files[name] = f
	}
	return f
}

// stateAt names the channel operation on a line: "chan send" for a send
// statement, "select" for a select statement, "chan receive" for a
// receive; "" when the line holds none or the file does not parse. A line
// holding several reports the first that starts on it.
func (s *sources) stateAt(file string, line int) string {
	f := s.file(file)
	if f == nil {
		return ""
	}
	state := ""
	ast.Inspect(f, func(n ast.Node) bool {
		if state != "" || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectStmt:
			if s.line(n.Select) == line {
				state = "select"
			}
		case *ast.SendStmt:
			if s.line(n.Arrow) == line {
				state = "chan send"
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && s.line(n.OpPos) == line {
				state = "chan receive"
			}
		}
		return true
	})
	return state
}

// selectSends reports whether the select statement on a line has a send
// case. A goroutine parked in it may be parked on the send.
func (s *sources) selectSends(file string, line int) bool {
	f := s.file(file)
	if f == nil {
		return false
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectStmt)
		if !ok || found {
			return !found
		}
		if s.line(sel.Select) != line {
			return true
		}
		for _, c := range sel.Body.List {
			if cc, ok := c.(*ast.CommClause); ok {
				if _, ok := cc.Comm.(*ast.SendStmt); ok {
					found = true
				}
			}
		}
		return true
	})
	return found
}

func (s *sources) line(p token.Pos) int { return s.fset.Position(p).Line }
