package summary

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/sendlint/sendlint/internal/fixturetest"
)

// TestFacts checks the facts lib exports: the chain of each function that
// may block, none for the one that does not, and the carrier field.
// analysistest round-trips them through their encoding.
func TestFacts(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), Analyzer, "lockedsend/lib")
}

// TestRunnerFacts checks which of servicekit's functions are runners that
// never run a loop again once its context is done: New (one context,
// checked before each Serve), Wrap and Go, Retry; and that Restartable,
// Forever and Group, which may run it again, carry no fact.
func TestRunnerFacts(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), Analyzer, "baresend/servicekit")
}

// TestInPlaceFacts checks which of retrykit's functions call their func
// parameter in place, on the caller's goroutine before they return:
// Retry does; Detached, which runs it on a goroutine, carries no fact.
func TestInPlaceFacts(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), Analyzer, "baresend/retrykit")
}

// TestGroupFacts checks which of closerkit's methods wait for, or mark
// done, the goroutines its WaitGroup counts: Done, Wait and
// SignalAndWait; not WaitSometimes, whose wait is on one branch only.
func TestGroupFacts(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), Analyzer, "baresend/closerkit")
}

// TestStdWithoutSSA checks the cost policy: a standard-library package is
// summarised without building SSA unless a pass asks for it, while a
// package outside GOROOT is built at once for its facts.
func TestStdWithoutSSA(t *testing.T) {
	testdata := fixturetest.Testdata(t, 2)
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(testdata, "src"),
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "sync", "lockedsend/lib")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading: %v", err)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act.Package.PkgPath, act.Err)
		}
		r := act.Result.(*Result)
		built := r.ssa != nil
		switch act.Package.PkgPath {
		case "sync":
			if built {
				t.Errorf("SSA was built for std package sync")
			}
			if r.SSA() == nil || len(r.SSA().SrcFuncs) == 0 {
				t.Errorf("sync: SSA asked for but not built")
			}
		case "lockedsend/lib":
			if !built {
				t.Errorf("lockedsend/lib: SSA not built, so no facts")
			}
		}
	}
}

func TestIsStd(t *testing.T) {
	testdata := fixturetest.Testdata(t, 2)
	cfg := &packages.Config{
		// Compiled files, as go vet hands them over: cgo's output for net
		// lives in the build cache.
		Mode: packages.NeedName | packages.NeedSyntax | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedTypes,
		Dir:  filepath.Join(testdata, "src"),
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "sync", "net", "net/http", "lockedsend/lib", "google.golang.org/grpc")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"sync": true, "net": true, "net/http": true, "lockedsend/lib": false, "google.golang.org/grpc": false}
	for _, p := range pkgs {
		if got := isStd(p.PkgPath, p.Fset, p.Syntax); got != want[p.PkgPath] {
			t.Errorf("isStd(%s) = %v, want %v", p.PkgPath, got, want[p.PkgPath])
		}
	}
}
