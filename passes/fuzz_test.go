package passes_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes"
)

// FuzzPasses builds small programs that mix channels, selects, locks,
// goroutines and streams from the fuzzer's bytes, and runs every pass on
// each. A pass must never fail or panic on a package that type-checks.
func FuzzPasses(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 1, 2},
		{3, 0, 4},
		{3, 5, 12, 14},
		{6, 0, 7, 1, 9},
		{19, 2, 17, 15},
		{20, 0, 13, 14, 22},
		{8, 10, 11, 23, 2},
		{7, 7, 7, 6, 6, 0},
		{18, 3, 6, 4, 21},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := program(data)
		pkg, ok := typecheck(t, src)
		if !ok {
			return // not every recipe type-checks; those are not inputs
		}
		graph, err := checker.Analyze(passes.All(), []*packages.Package{pkg}, nil)
		if err != nil {
			t.Fatalf("analysis failed: %v\n%s", err, src)
		}
		for _, act := range graph.Roots {
			if act.Err != nil {
				t.Fatalf("%s failed: %v\n%s", act.Analyzer.Name, act.Err, src)
			}
			for _, d := range act.Diagnostics {
				if strings.HasPrefix(d.Message, "internal error") {
					t.Fatalf("%s: %s\n%s", act.Analyzer.Name, d.Message, src)
				}
			}
		}
	})
}

// templates are the statements a program is made of. %s is a nested body;
// RET is replaced by the right return for the enclosing function.
var templates = []string{
	"s.out <- msg{}",
	"local <- msg{}",
	"unbuf <- msg{}",
	"s.mu.Lock()",
	"s.mu.Unlock()",
	"defer s.mu.Unlock()",
	"go func() {\n%s\n}()",
	"for i := 0; i < n; i++ {\n_ = i\n%s\n}",
	"if n > 0 {\n%s\n} else {\n%s\n}",
	"select {\ncase s.out <- msg{}:\ncase <-ctx.Done():\nRET\n}",
	"select {\ncase local <- msg{}:\ndefault:\n}",
	"select {\ncase v := <-in:\n_ = v\ncase <-time.After(time.Second):\n}",
	"_ = st.Send(&msg{})",
	"s.send = st.Send",
	"_ = s.send(&msg{})",
	"for _, c := range s.subs {\nc <- msg{}\n}",
	"close(unbuf)",
	"_ = <-local",
	"s.rw.RLock()\ns.rw.RUnlock()",
	"wg.Add(1)\ngo func() {\ndefer wg.Done()\n%s\n}()",
	"if s.mu.TryLock() {\n%s\ns.mu.Unlock()\n}",
	"RET",
	"go s.helper(local)",
	"for v := range in {\n_ = v\n%s\n}",
}

// program turns data into a Go file: a server with channel fields, locks
// and a stream, and a method whose body the bytes choose.
func program(data []byte) string {
	g := &generator{data: data}
	body := g.block(0, "return nil")
	return fmt.Sprintf(`package fuzz

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc"
)

type msg struct{ n int }

type stream interface {
	grpc.ServerStream
	Send(*msg) error
}

type server struct {
	mu   sync.Mutex
	rw   sync.RWMutex
	out  chan msg
	subs map[int]chan msg
	send func(*msg) error
}

func (s *server) helper(c chan msg) { c <- msg{} }

func (s *server) run(ctx context.Context, in chan msg, st stream, n int) error {
	local := make(chan msg, 1)
	unbuf := make(chan msg)
	var wg sync.WaitGroup
	_, _, _, _ = local, unbuf, &wg, time.Second
%s
	return nil
}
`, body)
}

type generator struct {
	data []byte
	pos  int
}

// block emits up to a few statements; ret is the return statement valid in
// the enclosing function.
func (g *generator) block(depth int, ret string) string {
	var out []string
	for n := 0; n < 4 && g.pos < len(g.data) && len(g.data) < 64; n++ {
		t := templates[int(g.data[g.pos])%len(templates)]
		g.pos++
		t = strings.ReplaceAll(t, "RET", ret)
		for strings.Contains(t, "%s") {
			inner := "_ = 0"
			if depth < 3 {
				innerRet := ret
				if strings.HasPrefix(t, "go func") || strings.HasPrefix(t, "wg.Add") {
					innerRet = "return"
				}
				inner = g.block(depth+1, innerRet)
			}
			t = strings.Replace(t, "%s", inner, 1)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return "_ = 0"
	}
	return strings.Join(out, "\n")
}

var (
	depsOnce sync.Once
	deps     map[string]*packages.Package
	fset     = token.NewFileSet()
	depsErr  error
)

// loadDeps loads the packages the programs import, once: the standard
// library and the grpc stub from testdata.
func loadDeps(t *testing.T) map[string]*packages.Package {
	depsOnce.Do(func() {
		testdata := fixturetest.Testdata(t, 1)
		cfg := &packages.Config{
			Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesSizes | packages.NeedImports | packages.NeedDeps,
			Dir:  testdata,
			Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOWORK=off"),
			Fset: fset,
		}
		pkgs, err := packages.Load(cfg, "context", "sync", "time", "google.golang.org/grpc")
		if err != nil {
			depsErr = err
			return
		}
		deps = make(map[string]*packages.Package)
		for _, p := range pkgs {
			deps[p.PkgPath] = p
		}
	})
	if depsErr != nil {
		t.Fatalf("loading the programs' imports: %v", depsErr)
	}
	return deps
}

// typecheck parses and type-checks src as package fuzz.
func typecheck(t *testing.T, src string) (*packages.Package, bool) {
	deps := loadDeps(t)
	f, err := parser.ParseFile(fset, "fuzz.go", src, parser.ParseComments)
	if err != nil {
		t.Fatalf("generated source does not parse: %v\n%s", err, src)
	}
	info := &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if p, ok := deps[path]; ok {
			return p.Types, nil
		}
		return nil, fmt.Errorf("no package %q", path)
	})}
	pkg, err := conf.Check("fuzz", fset, []*ast.File{f}, info)
	if err != nil {
		return nil, false
	}
	return &packages.Package{
		ID: "fuzz", Name: "fuzz", PkgPath: "fuzz",
		Fset: fset, Syntax: []*ast.File{f}, Types: pkg, TypesInfo: info,
		TypesSizes: types.SizesFor("gc", "amd64"),
		// No Imports: the passes then see no facts from dependencies, as
		// for a dependency that was never analysed, and the checker does
		// not re-analyse the standard library for each input.
	}, true
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// TestProgramsTypeCheck keeps the generator honest: the seeds must produce
// programs that type-check, or the fuzz target tests nothing.
func TestProgramsTypeCheck(t *testing.T) {
	for _, seed := range [][]byte{{0, 1, 2}, {6, 0, 7, 1, 9}, {19, 2, 17, 15}, {3, 5, 12, 14}} {
		if _, ok := typecheck(t, program(seed)); !ok {
			t.Errorf("seed %v does not type-check:\n%s", seed, program(seed))
		}
	}
}
