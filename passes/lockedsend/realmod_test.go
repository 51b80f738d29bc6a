package lockedsend_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes/lockedsend"
)

// downloadFailure matches the errors of a module that is not in the module
// cache and cannot be fetched.
var downloadFailure = regexp.MustCompile(`module lookup disabled|GOPROXY=off|dial tcp|no such host|cannot find module`)

// TestRealModules runs the pass over testdata/realmod, a module that uses
// the real google.golang.org/grpc v1.85.0 and connectrpc.com/connect
// v1.21.1, so that stream recognition and the facts that carry it across
// packages are checked against the types users compile against.
func TestRealModules(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "realmod"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes,
		Dir:  dir,
		// The proxy stays on: this load fetches what analysistest, which
		// turns it off, then finds in the module cache.
		Env: append(os.Environ(), "GO111MODULE=on", "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if downloadFailure.MatchString(e.Msg) {
				t.Skipf("skipping: grpc and connect are not in the module cache: %s", e.Msg)
			}
		}
	})
	fixturetest.Tiers(t, []*analysis.Analyzer{lockedsend.Analyzer}, func(t fixturetest.T) {
		analysistest.Run(t, dir, lockedsend.Analyzer, "./...")
	})
}
