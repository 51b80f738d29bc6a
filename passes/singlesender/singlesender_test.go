package singlesender_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes/singlesender"
)

// TestReproductions checks singlesender's verdicts on the systems the
// fixtures reproduce: the runner hub's three sends through the stored
// Send, the regression's fast path, and the quiet router and fixed hub.
func TestReproductions(t *testing.T) {
	fixturetest.Run(t, fixturetest.Testdata(t, 2), []*analysis.Analyzer{singlesender.Analyzer},
		"router/...", "routerfixed/...", "runnerhub/...", "runnerhubfixed/...", "runnerhubregress/...")
}

func TestRules(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), singlesender.Analyzer, "singlesender")
}

// TestRealModules runs the pass over code that uses the real
// google.golang.org/grpc v1.85.0 and connectrpc.com/connect v1.21.1 generic
// stream types, from the nested module testdata/realmod. It skips only when
// the modules are not in the module cache and cannot be fetched.
func TestRealModules(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "realmod"))
	if err != nil {
		t.Fatal(err)
	}
	list := exec.Command("go", "list", "-deps", "./...")
	list.Dir = dir
	list.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := list.CombinedOutput(); err != nil {
		if downloadFailure.Match(out) {
			t.Skipf("skipping: grpc and connect cannot be downloaded: %s", out)
		}
		t.Fatalf("go list in %s: %v\n%s", dir, err, out)
	}
	analysistest.Run(t, dir, singlesender.Analyzer, "./...")
}

// downloadFailure matches the errors of a module that cannot be fetched.
var downloadFailure = regexp.MustCompile(`dial tcp|no such host|i/o timeout|connection refused|` +
	`module lookup disabled|GOPROXY=off|reading https?://\S+: (403|404|410|5\d\d)`)
