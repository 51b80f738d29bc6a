package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Exit codes.
const (
	exitClean    = 0
	exitError    = 1
	exitUsage    = 2
	exitFindings = 3
)

// standalone analyses packages by running go vet with this executable as
// its vet tool. go vet loads and type-checks each package once, in
// parallel, hands each the facts of its dependencies, and caches the
// results; the driver only collects, filters, sorts and prints them.
func standalone(analyzers []*analysis.Analyzer, args []string, stdout, stderr io.Writer) int {
	opts, err := parseFlags(analyzers, args, stdout)
	if err == flag.ErrHelp {
		return exitClean
	}
	if err != nil {
		fmt.Fprintf(stderr, "sendlint: %v (run 'sendlint -h' for usage)\n", err)
		return exitUsage
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "sendlint: cannot find its own executable: %v\n", err)
		return exitError
	}
	if opts.fix {
		return runFix(exe, opts, stdout, stderr)
	}
	res, err := vet(exe, opts)
	if err != nil {
		fmt.Fprintf(stderr, "sendlint: %v\n", err)
		return exitError
	}
	return report(analyzers, res, opts, stdout, stderr)
}

// vetArgs builds the go vet command line.
func vetArgs(exe string, opts *options, patterns []string, extra ...string) []string {
	args := []string{"vet", "-vettool=" + exe}
	if opts.tags != "" {
		args = append(args, "-tags="+opts.tags)
	}
	args = append(args, extra...)
	args = append(args, opts.forward...)
	return append(args, patterns...)
}

// vet runs go vet in JSON mode and returns the findings on the packages the
// patterns match. A package whose output go vet replayed from a run that
// analysed it only as a dependency (see marksFlag) is analysed again,
// under a cache key for those packages alone.
func vet(exe string, opts *options) (*results, error) {
	asked, err := listPackages(opts)
	if err != nil {
		return nil, err
	}
	res, err := vetRun(exe, opts, opts.patterns, asked)
	if err != nil {
		return nil, err
	}
	if stale := res.replayed(asked); len(stale) > 0 {
		again, err := vetRun(exe, opts, stale, asked, "-"+askedSetFlag+"="+digest(stale))
		if err != nil {
			return nil, err
		}
		res.merge(again)
	}
	return res, nil
}

// vetRun runs go vet once on patterns and parses what it prints, keeping
// the packages in asked.
func vetRun(exe string, opts *options, patterns []string, asked map[string]bool, extra ...string) (*results, error) {
	extra = append([]string{"-json", "-" + marksFlag}, extra...)
	cmd := exec.Command("go", vetArgs(exe, opts, patterns, extra...)...)
	cmd.Dir = opts.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return nil, fmt.Errorf("running go vet: %v", runErr)
	}
	if strings.Contains(stderr.String(), "no packages to vet") {
		return nil, fmt.Errorf("no packages to analyse: %s matched no packages", strings.Join(patterns, " "))
	}
	res, err := parseVetJSON(&stdout, asked)
	if err != nil {
		return nil, err
	}
	res.errors = append(res.errors, goErrors(stderr.String())...)
	if runErr != nil && len(res.errors) == 0 {
		res.errors = append(res.errors, "go vet failed: "+strings.TrimSpace(stderr.String()))
	}
	return res, nil
}

// listPackages returns the import paths the patterns match, as go vet
// will resolve them. -find skips the dependencies, which go vet loads
// anyway. Patterns that match nothing are left to go vet to report.
func listPackages(opts *options) (map[string]bool, error) {
	args := []string{"list", "-e", "-find", "-f", "{{.ImportPath}}"}
	if opts.tags != "" {
		args = append(args, "-tags="+opts.tags)
	}
	cmd := exec.Command("go", append(args, opts.patterns...)...)
	cmd.Dir = opts.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing packages: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	paths := make(map[string]bool)
	for _, p := range strings.Fields(string(out)) {
		paths[p] = true
	}
	return paths, nil
}

// digest names a set of packages in a cache key.
func digest(paths []string) string {
	sum := sha256.Sum256([]byte(strings.Join(paths, "\n")))
	return hex.EncodeToString(sum[:8])
}

// runFix applies or prints suggested fixes through go vet -fix.
func runFix(exe string, opts *options, stdout, stderr io.Writer) int {
	extra := []string{"-fix"}
	if opts.diff {
		extra = append(extra, "-diff")
	}
	cmd := exec.Command("go", vetArgs(exe, opts, opts.patterns, extra...)...)
	cmd.Dir = opts.dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return exitErr.ExitCode()
		}
		fmt.Fprintf(stderr, "sendlint: running go vet -fix: %v\n", err)
		return exitError
	}
	return exitClean
}

// goErrors turns go vet's stderr into one message per failing package:
// "# pkg" headers followed by the tool's or the go command's errors. A
// header in brackets, "# [pkg-config --cflags -- opus]", names a command
// the go command ran for the package above it (a cgo dependency missing on
// this machine): the errors stay with that package, prefixed by the
// command.
func goErrors(stderr string) []string {
	var out []string
	pkg, command := "", ""
	for line := range strings.SplitSeq(stderr, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case line == "":
		case strings.HasPrefix(line, "# [") && strings.HasSuffix(line, "]") && pkg != "":
			command = strings.Join(strings.Fields(line[len("# ["):len(line)-1]), " ")
		case strings.HasPrefix(line, "# "):
			pkg, command = strings.TrimPrefix(line, "# "), ""
		case strings.HasPrefix(line, "go: downloading "), strings.HasPrefix(line, "go: finding "):
		case pkg != "" && command != "":
			out = append(out, fmt.Sprintf("package %s: %s: %s", pkg, command, line))
		case pkg != "":
			out = append(out, fmt.Sprintf("package %s: %s", pkg, strings.TrimPrefix(line, "vet: ")))
		default:
			out = append(out, line)
		}
	}
	return out
}
