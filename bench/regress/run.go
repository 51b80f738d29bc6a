package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// A verdict on one side of a case.
type verdict string

const (
	found  verdict = "found"  // bug side: the pass reported an expected line
	missed verdict = "missed" // bug side: it did not
	quiet  verdict = "quiet"  // fix side: nothing reported at the changed sends
	noisy  verdict = "noisy"  // fix side: something was
	failed verdict = "error"  // the version could not be fetched or analysed
)

// A sideResult is what one version of a case gave.
type sideResult struct {
	verdict verdict
	err     error
	hits    []diag // findings at the expected lines, of any pass
	near    []diag // findings elsewhere in the same files
	elapsed time.Duration
}

type result struct {
	c        *regressCase
	bug, fix sideResult
}

func runCase(cfg config, c *regressCase) result {
	r := result{c: c}
	r.bug = runSide(cfg, c, "bug", c.Bug)
	switch {
	case r.bug.err != nil:
		r.bug.verdict = failed
	case len(at(r.bug.hits, c.Bug.Lines, c.Pass)) > 0:
		r.bug.verdict = found
	default:
		r.bug.verdict = missed
	}
	r.fix = runSide(cfg, c, "fix", c.Fix)
	switch {
	case r.fix.err != nil:
		r.fix.verdict = failed
	case len(r.fix.hits) > 0:
		r.fix.verdict = noisy
	default:
		r.fix.verdict = quiet
	}
	return r
}

// runSide fetches one version into a scratch module and runs sendlint on
// the package.
func runSide(cfg config, c *regressCase, name string, sd side) (res sideResult) {
	start := time.Now()
	defer func() { res.elapsed = time.Since(start) }()
	dir := filepath.Join(cfg.work, c.Name, name)
	modDir, err := setup(cfg, dir, c, sd.Version)
	if err != nil {
		res.err = err
		return res
	}
	args := []string{"-json"}
	if c.Tags != "" {
		args = append(args, "-tags="+c.Tags)
	}
	args = append(args, c.Package)
	out, err := command(cfg, dir, cfg.sendlint, args...)
	if err != nil {
		res.err = err
		return res
	}
	diags, errs, err := parseFindings(bytes.NewReader(out), modDir)
	if err != nil {
		res.err = err
		return res
	}
	if len(errs) > 0 {
		res.err = fmt.Errorf("sendlint: %s", strings.Join(errs, "; "))
		return res
	}
	res.hits = at(diags, sd.Lines, "")
	for _, d := range inFiles(diags, sd.Lines) {
		if len(at([]diag{d}, sd.Lines, "")) == 0 {
			res.near = append(res.near, d)
		}
	}
	return res
}

// setup makes a scratch module that requires the package at version and
// returns the directory the module is unpacked in.
func setup(cfg config, dir string, c *regressCase, version string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	gomod := "module sendlint.regress/scratch\n\ngo 1.26\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return "", err
	}
	get := append([]string{"get", c.Package + "@" + version}, c.Require...)
	if _, err := command(cfg, dir, "go", get...); err != nil {
		return "", err
	}
	// go vet analyses the package with its tests; list them now so that
	// the requirements their imports need are added here, where the go
	// command's "go: found" notes are harmless, and not in the sendlint
	// run, which takes anything on go vet's standard error for a failure.
	if _, err := command(cfg, dir, "go", "list", "-test", "-deps", c.Package); err != nil {
		return "", err
	}
	out, err := command(cfg, dir, "go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", c.Module)
	if err != nil {
		return "", err
	}
	got, modDir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if got != version {
		return "", fmt.Errorf("%s resolved to %s, not %s: another requirement raised it", c.Module, got, version)
	}
	return modDir, nil
}

// command runs a program in the scratch module and returns its standard
// output; on failure the error carries the end of its standard error.
// GOTOOLCHAIN=local keeps an old module from fetching a toolchain, GOWORK=off
// keeps a workspace above the scratch directory out, and -mod=mod lets go
// vet add the sums a dependency's packages need.
func command(cfg config, dir, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		// sendlint -json exits 0 with findings and 1 when some package did
		// not load or a pass failed: it prints {} (or the findings of the
		// packages that did load) and the errors on standard error. A
		// package whose test files do not build (go vet analyses a package
		// with its tests) is such an error, not a run without findings.
		return nil, fmt.Errorf("%s %s: %v: %s", filepath.Base(name), strings.Join(args, " "), err, tail(stderr.String(), 6))
	}
	return stdout.Bytes(), nil
}

// tail returns the last n lines of s, joined with " | ".
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

const rowFormat = "%-34s %-12s %-7s %-6s %s\n"

func printHeader(w io.Writer) {
	fmt.Fprintf(w, rowFormat, "case", "pass", "bug", "fix", "where")
}

func printResult(w io.Writer, r result, verbose bool) {
	where := r.c.Bug.Lines[0].String()
	if others := passesAt(r.bug.hits, r.c.Pass); r.bug.verdict == missed && others != "" {
		where += " (reported by " + others + ")"
	}
	if r.fix.verdict == noisy {
		where += "; at the fix " + passesAt(r.fix.hits, "")
	}
	fmt.Fprintf(w, rowFormat, r.c.Name, r.c.Pass, r.bug.verdict, r.fix.verdict, where)
	for _, s := range []struct {
		name string
		sd   side
		res  sideResult
	}{{"bug", r.c.Bug, r.bug}, {"fix", r.c.Fix, r.fix}} {
		if s.res.err != nil {
			fmt.Fprintf(w, "\t%s %s: %v\n", s.name, s.sd.Version, s.res.err)
		}
		if !verbose {
			continue
		}
		fmt.Fprintf(w, "\t%s %s (%.0fs)\n", s.name, s.sd.Version, s.res.elapsed.Seconds())
		for _, d := range s.res.hits {
			fmt.Fprintf(w, "\t\tat   %s:%d: %s (%s)\n", d.At, d.Col, d.Message, d.Pass)
		}
		for _, d := range s.res.near {
			fmt.Fprintf(w, "\t\tnear %s:%d: %s (%s)\n", d.At, d.Col, d.Message, d.Pass)
		}
	}
}

// passesAt names the passes among the findings, other than except.
func passesAt(diags []diag, except string) string {
	var names []string
	seen := map[string]bool{except: true}
	for _, d := range diags {
		if !seen[d.Pass] {
			seen[d.Pass] = true
			names = append(names, d.Pass)
		}
	}
	return strings.Join(names, ",")
}

// totals counts the verdicts.
type totals struct {
	cases, found, missed, quiet, noisy, failed int
}

func tally(results []result) totals {
	t := totals{cases: len(results)}
	for _, r := range results {
		switch r.bug.verdict {
		case found:
			t.found++
		case missed:
			t.missed++
		}
		switch r.fix.verdict {
		case quiet:
			t.quiet++
		case noisy:
			t.noisy++
		}
		if r.bug.verdict == failed || r.fix.verdict == failed {
			t.failed++
		}
	}
	return t
}

func (t totals) ok() bool { return t.found == t.cases && t.quiet == t.cases }

func (t totals) String() string {
	return fmt.Sprintf("totals: %d cases; at the bug %d found, %d missed; at the fix %d quiet, %d noisy; %d with errors",
		t.cases, t.found, t.missed, t.quiet, t.noisy, t.failed)
}
