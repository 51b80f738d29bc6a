// Command bench measures what sendlint costs next to the linters teams
// already run, and writes docs/BENCHMARKS.md. Run it through bench/run:
//
//	bench/run                          # every target, once
//	bench/run -targets std,grpc -n 3   # two targets, median of three
//	bench/run -quick                   # smoke test on a tiny target
//
// Each target's packages are listed once and handed to every tool as the
// same explicit list. For each tool and repetition the harness times a cold
// run (empty analysis caches, build cache already holding the compiled
// packages) and then a warm run on unchanged code. See measure.go and
// rss.go for what the numbers mean.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

type config struct {
	root       string // repository root: holds go.mod, bench/mod, docs/
	work       string // scratch directory; made and removed when empty
	keep       bool   // keep a scratch directory the harness made
	out        string // report path
	targets    []string
	tools      []string
	n          int
	linear     string // target whose package prefixes show growth; "" skips
	prefixes   []int  // package counts; 0 stands for all
	sendlint   string // binary to measure; built from cmd/sendlint when empty
	buildCache string // GOCACHE for building the tools; inside work when empty
	results    string // also save the results as JSON here
	render     string // measure nothing: write the report from these JSON files
	args       []string
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return // the flag package has printed the usage
	}
	if err == nil {
		err = bench(cfg)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var cfg config
	var targets, tools, prefixes string
	var quick bool
	fs.StringVar(&cfg.root, "root", ".", "repository root")
	fs.StringVar(&cfg.work, "work", "", "scratch directory (default: a new temporary one, removed at the end)")
	fs.BoolVar(&cfg.keep, "keep", false, "keep the scratch directory and its logs")
	fs.StringVar(&cfg.out, "o", "", `report to write, "-" for stdout (default: <root>/docs/BENCHMARKS.md, stdout with -quick)`)
	fs.StringVar(&targets, "targets", defaultTargets, "comma-separated targets")
	fs.StringVar(&tools, "tools", strings.Join(toolNames(), ","), "comma-separated tools to measure")
	fs.IntVar(&cfg.n, "n", 1, "repetitions of each measurement; the median is reported")
	fs.StringVar(&cfg.linear, "linear", "std", `target for the per-package table ("" to skip)`)
	fs.StringVar(&prefixes, "prefixes", "25,50,100,200,all", "package counts for the per-package table")
	fs.StringVar(&cfg.sendlint, "sendlint", os.Getenv("SENDLINT"), "sendlint binary (default $SENDLINT, else built from ./cmd/sendlint)")
	fs.StringVar(&cfg.buildCache, "buildcache", "", "GOCACHE for building the tools (default: inside the scratch directory)")
	fs.StringVar(&cfg.results, "results", "", "also save the results as JSON in this file")
	fs.StringVar(&cfg.render, "render", "", "measure nothing; write the report from -results files (comma-separated), keeping only -tools")
	fs.BoolVar(&quick, "quick", false, "smoke test: target tiny, per-package table over tiny, one repetition")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if quick {
		targets, cfg.linear, prefixes, cfg.n = "tiny", "tiny", "1,all", 1
		if cfg.out == "" {
			cfg.out = "-" // a smoke test must not overwrite the real report
		}
	}
	cfg.targets, cfg.tools, cfg.args = splitList(targets), splitList(tools), userArgs(args)
	var err error
	cfg.prefixes, err = parsePrefixes(prefixes)
	if cfg.n < 1 {
		err = fmt.Errorf("-n must be at least 1")
	}
	return cfg, err
}

// userArgs keeps the arguments that choose what is measured, so that the
// report shows a command a reader can run: it drops the ones bench/run adds
// and the ones that name local files (the sendlint measured is named by
// its version line instead).
func userArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		switch name {
		case "root", "work", "buildcache", "o", "results", "render", "sendlint":
			if !hasValue {
				i++
			}
			continue
		case "keep":
			continue
		}
		out = append(out, args[i])
	}
	return out
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func parsePrefixes(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		if f == "all" {
			out = append(out, 0)
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad -prefixes entry %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// bench runs everything the config asks for and writes the report.
func bench(cfg config) (err error) {
	root, err := filepath.Abs(cfg.root)
	if err != nil {
		return err
	}
	cfg.root = root
	if cfg.out == "" {
		cfg.out = filepath.Join(root, "docs", "BENCHMARKS.md")
	}
	if err := checkReportPath(cfg.out); err != nil {
		return err // before the runs, which take many minutes
	}
	if cfg.work == "" {
		if cfg.work, err = os.MkdirTemp("", "sendlint-bench-"); err != nil {
			return err
		}
		if !cfg.keep {
			defer os.RemoveAll(cfg.work)
		}
	}
	if cfg.render != "" {
		rep, err := mergeResults(splitList(cfg.render))
		if err != nil {
			return err
		}
		rep.keepTools(cfg.tools)
		return writeReport(cfg.out, rep)
	}
	h, err := newHarness(cfg)
	if err != nil {
		return err
	}
	rep, err := h.runAll()
	if err != nil {
		return err
	}
	return writeReport(cfg.out, rep)
}

// checkReportPath reports why the report cannot be written to path: a
// directory, or a file in a directory that does not exist.
func checkReportPath(path string) error {
	if path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("-o %s is a directory: name the report file", path)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("-o %s: directory %s does not exist", path, filepath.Dir(path))
	}
	return nil
}
