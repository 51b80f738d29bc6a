package baseline

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"strings"
)

// Sources reads each source file once and answers, for a position, the
// function that encloses it and the normalized text of its line.
type Sources struct {
	files map[string]*source
}

// NewSources returns an empty cache.
func NewSources() *Sources { return &Sources{files: make(map[string]*source)} }

type source struct {
	lines [][]byte  // nil when the file cannot be read
	file  *ast.File // nil when the file does not parse
	tfile *token.File
}

func (s *Sources) get(name string) *source {
	if src, ok := s.files[name]; ok {
		return src
	}
	src := new(source)
	s.files[name] = src
	data, err := os.ReadFile(name)
	if err != nil {
		return src
	}
	src.lines = splitLines(data)
	fset := token.NewFileSet()
	// A file with syntax errors still yields the declarations before the
	// error, which is all Function needs.
	src.file, _ = parser.ParseFile(fset, name, data, parser.SkipObjectResolution)
	if src.file != nil {
		src.tfile = fset.File(src.file.Pos())
	}
	return src
}

func splitLines(data []byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' {
			i++
		}
		lines = append(lines, data[:i])
		if i < len(data) {
			i++
		}
		data = data[i:]
	}
	return lines
}

// Function returns the name of the function declaration enclosing line
// and col of file: "Name", or "(T).Name" / "(*T).Name" for a method, with
// type parameters left out. A position in a function literal belongs to
// the declaration around it, so adding or removing literals does not rename
// the findings of the others. Outside any function it returns "".
func (s *Sources) Function(file string, line, col int) string {
	src := s.get(file)
	if src.file == nil || line < 1 || line > src.tfile.LineCount() {
		return ""
	}
	off := src.tfile.Offset(src.tfile.LineStart(line)) + max(col-1, 0)
	if off > src.tfile.Size() {
		return ""
	}
	pos := src.tfile.Pos(off)
	for _, decl := range src.file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if ok && fn.Pos() <= pos && pos < fn.End() {
			return funcName(fn)
		}
	}
	return ""
}

func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	return "(" + recvType(fn.Recv.List[0].Type) + ")." + fn.Name.Name
}

func recvType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + recvType(e.X)
	case *ast.ParenExpr:
		return recvType(e.X)
	case *ast.IndexExpr:
		return recvType(e.X)
	case *ast.IndexListExpr:
		return recvType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// Snippet returns line of file as a sequence of Go tokens separated by one
// space, without comments: re-indenting, realigning or commenting a line
// does not change its snippet, editing its code does. An unreadable line
// yields "".
func (s *Sources) Snippet(file string, line int) string {
	src := s.get(file)
	if line < 1 || line > len(src.lines) {
		return ""
	}
	return normalize(src.lines[line-1])
}

func normalize(text []byte) string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(text))
	// Errors (a line inside a raw string or a block comment) are ignored:
	// the tokens that scan are still a stable summary of the line.
	sc.Init(f, text, func(token.Position, string) {}, 0)
	var toks []string
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch {
		case tok == token.SEMICOLON && lit == "\n":
			// an inserted semicolon is not in the text
		case lit != "":
			toks = append(toks, lit)
		default:
			toks = append(toks, tok.String())
		}
	}
	return strings.Join(toks, " ")
}
