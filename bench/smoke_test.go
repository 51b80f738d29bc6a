package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuick runs the whole harness the way bench/run -quick does, on the
// tiny target, and then renders the baselines alone from its results. It
// runs under -short too: it takes seconds once staticcheck is in the build
// cache, about a minute on a machine that has never built it.
//
// sendlint is $SENDLINT, else built from ./cmd/sendlint; with neither, the
// test measures the other tools only and says so.
func TestQuick(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Fatal("the harness needs GNU time at /usr/bin/time (Debian package time)")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// Build the tools with the user's cache: a private one would make every
	// test run rebuild staticcheck from nothing.
	buildCache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args := []string{"-quick", "-root", root, "-work", dir, "-buildcache", strings.TrimSpace(string(buildCache)),
		"-o", filepath.Join(dir, "quick.md")}
	withSendlint := os.Getenv("SENDLINT") != ""
	if _, err := os.Stat(filepath.Join(root, "cmd", "sendlint")); err == nil {
		withSendlint = true
	}
	if !withSendlint {
		t.Log("no $SENDLINT and no ./cmd/sendlint: measuring staticcheck and go vet only")
		args = append(args, "-tools", "staticcheck,govet")
	}
	report := runQuick(t, args)
	for _, want := range []string{"## Standalone, cold caches", "## go vet, cold vet cache", "## Cost per package",
		"| tiny | 2 |", "| 1 | 1 |", "| 2 | 2 |"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// tiny/a holds one self-assignment, which both baselines report.
	rep, err := loadResults(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"staticcheck", "govet"} {
		if s := rep.Targets[0].Cold[tool]; s.Findings != 1 || s.Exit != 1 || s.Wall <= 0 {
			t.Errorf("%s on tiny: %+v, want one finding, exit 1 and a wall time", tool, s)
		}
	}
	if withSendlint && !strings.Contains(report, "## sendlint findings per pass") {
		t.Error("report lacks the per-pass table")
	}

	rendered := runQuick(t, []string{"-render", filepath.Join(dir, "results.json"), "-tools", "staticcheck,govet",
		"-o", filepath.Join(dir, "baselines.md")})
	if !strings.Contains(rendered, "sendlint is not measured here") {
		t.Errorf("baselines-only report lacks its notice:\n%s", rendered)
	}
}

func runQuick(t *testing.T, args []string) string {
	t.Helper()
	cfg, err := parseFlags(args)
	if err != nil {
		t.Fatal(err)
	}
	if err := bench(cfg); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(cfg.out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
