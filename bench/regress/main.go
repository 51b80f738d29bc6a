// Command regress checks that sendlint still finds sends that real projects
// fixed. Each case in cases.txt names a module, the version before a fix,
// where the pass must report the send, and the version with the fix, where
// nothing may be reported at the sends the fix changed.
//
//	go run ./bench/regress                          # every case
//	go run ./bench/regress -case amqp-reader-deadlines
//	go run ./bench/regress -sendlint /tmp/sendlint  # a binary built elsewhere
//
// For each version it makes a scratch module in a temporary directory,
// runs go get package@version (the module proxy resolves everything; the
// downloads stay in the normal module cache), and runs sendlint -json on
// the package, one case at a time. It downloads, so it is never part of
// go test ./...: docs/REGRESSION.md says how to add a case.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

type config struct {
	root     string // repository root, where cmd/sendlint is built from
	cases    string
	only     string
	sendlint string
	work     string
	keep     bool
	verbose  bool
	timeout  time.Duration
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "regress:", err)
		os.Exit(2)
	}
	ok, err := run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "regress:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("regress", flag.ContinueOnError)
	var cfg config
	fs.StringVar(&cfg.root, "root", ".", "repository root: sendlint is built from its cmd/sendlint")
	fs.StringVar(&cfg.cases, "cases", "", "case file (default bench/regress/cases.txt under -root)")
	fs.StringVar(&cfg.only, "case", "", "run only these cases (comma-separated names)")
	fs.StringVar(&cfg.sendlint, "sendlint", "", "sendlint binary to run (default: built from -root)")
	fs.StringVar(&cfg.work, "work", "", "scratch directory (default: a new temporary directory, removed at the end)")
	fs.BoolVar(&cfg.keep, "keep", false, "keep the scratch directory")
	fs.BoolVar(&cfg.verbose, "v", false, "print the findings at and near the expected lines")
	fs.DurationVar(&cfg.timeout, "timeout", 15*time.Minute, "time allowed to each go get and each sendlint run")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: go run ./bench/regress [flags]")
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output(), "exit status: 0 every case found and quiet, 1 some case missed, noisy or failed, 2 usage or setup error")
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if cfg.cases == "" {
		cfg.cases = filepath.Join(cfg.root, "bench", "regress", "cases.txt")
	}
	return cfg, nil
}

func run(cfg config) (bool, error) {
	f, err := os.Open(cfg.cases)
	if err != nil {
		return false, err
	}
	all, err := parseCases(f)
	_ = f.Close() // read-only: a failed close loses nothing
	if err != nil {
		return false, fmt.Errorf("%s: %v", cfg.cases, err)
	}
	cases, err := selectCases(all, cfg.only)
	if err != nil {
		return false, err
	}
	if cfg.work == "" {
		if cfg.work, err = os.MkdirTemp("", "sendlint-regress."); err != nil {
			return false, err
		}
		if cfg.keep {
			fmt.Fprintln(os.Stderr, "regress: scratch directory", cfg.work)
		} else {
			defer os.RemoveAll(cfg.work)
		}
	}
	if cfg.work, err = filepath.Abs(cfg.work); err != nil {
		return false, err
	}
	if cfg.sendlint == "" {
		cfg.sendlint = filepath.Join(cfg.work, "sendlint")
		build := exec.Command("go", "build", "-o", cfg.sendlint, "./cmd/sendlint")
		build.Dir, build.Stdout, build.Stderr = cfg.root, os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return false, fmt.Errorf("building sendlint: %v", err)
		}
	}
	if cfg.sendlint, err = filepath.Abs(cfg.sendlint); err != nil {
		return false, err
	}
	var results []result
	printHeader(os.Stdout)
	for _, c := range cases {
		r := runCase(cfg, c)
		printResult(os.Stdout, r, cfg.verbose)
		results = append(results, r)
	}
	t := tally(results)
	fmt.Fprintln(os.Stdout, t)
	return t.ok(), nil
}
