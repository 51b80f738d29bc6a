package streams_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// The realmod tests run the recogniser over code that uses the real
// google.golang.org/grpc v1.85.0 and connectrpc.com/connect v1.21.1, from
// the nested module testdata/realmod, so that the stubs cannot drift from
// what users compile against. The root module does not depend on either.

// downloadFailure matches the errors of a module that cannot be fetched:
// no network, no proxy, or a proxy that refuses.
var downloadFailure = regexp.MustCompile(`dial tcp|no such host|i/o timeout|connection refused|` +
	`module lookup disabled|GOPROXY=off|reading https?://\S+: (403|404|410|5\d\d)|unrecognized import path`)

// loadRealmod loads patterns of the realmod module with syntax for the
// named packages and export data for their dependencies. It skips the test
// only when the modules cannot be downloaded.
func loadRealmod(t *testing.T, patterns ...string) []*packages.Package {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "realmod"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.LoadSyntax,
		Dir:  dir,
		Env:  append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly", "GO111MODULE=on"),
		Fset: token.NewFileSet(),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	var errs []string
	if err != nil {
		errs = append(errs, err.Error())
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	for _, e := range errs {
		if downloadFailure.MatchString(e) {
			t.Skipf("skipping: grpc v1.85.0 and connect v1.21.1 cannot be downloaded: %s", e)
		}
	}
	if len(errs) > 0 {
		t.Fatalf("loading realmod: %s", strings.Join(errs, "\n"))
	}
	return pkgs
}

// srcFuncs builds SSA for pkgs and returns each package's declared
// functions and methods, found as buildssa finds its SrcFuncs: from the
// FuncDecls of the syntax. Anonymous functions are added by the callers.
func srcFuncs(pkgs []*packages.Package) map[*packages.Package][]*ssa.Function {
	prog, _ := ssautil.Packages(pkgs, ssa.BuilderMode(0))
	prog.Build()
	out := make(map[*packages.Package][]*ssa.Function)
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				if obj, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					if fn := prog.FuncValue(obj); fn != nil {
						out[p] = append(out[p], fn)
					}
				}
			}
		}
	}
	return out
}

// wants collects `// want` regexps by file:line, as analysistest writes them.
func wants(t *testing.T, fset *token.FileSet, files []*ast.File) map[string]*regexp.Regexp {
	t.Helper()
	out := make(map[string]*regexp.Regexp)
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, ok := strings.CutPrefix(c.Text, "// want ")
				if !ok {
					continue
				}
				pattern, err := strconv.Unquote(strings.TrimSpace(text))
				if err != nil {
					t.Fatalf("%s: bad want: %v", fset.Position(c.Pos()), err)
				}
				out[lineOf(fset, c.Pos())] = regexp.MustCompile(pattern)
			}
		}
	}
	return out
}

func lineOf(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// checkRealmod asserts that the sends recognised in pkgs are exactly the
// lines with a want, and that each message matches its want.
func checkRealmod(t *testing.T, pkgs []*packages.Package) {
	t.Helper()
	m := defaultMatcher(t)
	for p, fns := range srcFuncs(pkgs) {
		want := wants(t, p.Fset, p.Syntax)
		flow := m.Flow(p.Types, fns, nil)
		for _, fn := range withAnon(fns) {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(ssa.CallInstruction)
					if !ok {
						continue
					}
					s, ok := flow.Send(call)
					if !ok {
						continue
					}
					at := lineOf(p.Fset, call.Pos())
					msg := "send " + s.Origin.Name + ": " + s.Describe(p.Fset)
					switch re := want[at]; {
					case re == nil:
						t.Errorf("%s: unexpected %q", at, msg)
					case !re.MatchString(msg):
						t.Errorf("%s: %q does not match %q", at, msg, re)
					}
					delete(want, at)
				}
			}
		}
		for at, re := range want {
			t.Errorf("%s: no send recognised matching %q", at, re)
		}
	}
}

func withAnon(fns []*ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	var visit func(*ssa.Function)
	visit = func(fn *ssa.Function) {
		out = append(out, fn)
		for _, a := range fn.AnonFuncs {
			visit(a)
		}
	}
	for _, fn := range fns {
		visit(fn)
	}
	return out
}

// TestRealGRPCAndConnect checks the handlers and clients of realmod. Their
// generated stream types come from package pb's export data.
func TestRealGRPCAndConnect(t *testing.T) {
	pkgs := loadRealmod(t, "./server", "./connectsvc")
	if len(pkgs) != 2 {
		t.Fatalf("loaded %d packages, want 2", len(pkgs))
	}
	checkRealmod(t, pkgs)
}

// TestRealGeneratedCode checks the generated-style package itself: its
// concrete stream struct's Send is a send, and so is the SendMsg inside it.
func TestRealGeneratedCode(t *testing.T) {
	pkgs := loadRealmod(t, "./pb")
	checkRealmod(t, pkgs)
	pb := pkgs[0].Types
	obj, _, _ := types.LookupFieldOrMethod(lookupType(t, pb, "routeGuideRouteChatServer"), true, pb, "Send")
	if fn, ok := obj.(*types.Func); !ok || !defaultMatcher(t).IsSend(fn) {
		t.Errorf("(*pb.routeGuideRouteChatServer).Send is not recognised as a send")
	}
	obj, _, _ = types.LookupFieldOrMethod(lookupType(t, pb, "routeGuideRouteChatServer"), true, pb, "Recv")
	if fn, ok := obj.(*types.Func); !ok || defaultMatcher(t).IsSend(fn) {
		t.Errorf("(*pb.routeGuideRouteChatServer).Recv is recognised as a send")
	}
}
