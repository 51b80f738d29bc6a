// Command precision draws the sample the precision ledger judges
// (docs/PRECISION.md says how): it runs sendlint -audit on each target's
// own packages, counts the findings per pass and tier, draws a seeded
// random ten default-tier findings per pass, and checks that the ledger
// holds a verdict for each of them.
//
//	go run ./bench/precision                              # counts and the sample
//	go run ./bench/precision -o /tmp/sample.md            # also written as markdown
//	go run ./bench/precision -ledger docs/PRECISION.md    # check the verdicts
//	go run ./bench/precision -results /tmp/runs.json      # keep the findings ...
//	go run ./bench/precision -render /tmp/runs.json -ledger docs/PRECISION.md  # ... and check again without running
//
// Targets resolve inside bench/mod, whose go.mod pins their versions, as
// the speed benchmark's do: go list -e lists the target's pattern, and the
// packages of the target's module that load without errors are analysed,
// one target at a time, with sendlint built from ./cmd/sendlint unless
// -sendlint names a binary. Test files are not analysed, as sendlint's
// default is.
//
// The exit status is 0 when the run succeeds and, with -ledger, every
// sampled finding has a verdict; 1 when the ledger lacks a verdict or has a
// malformed row; 2 on a usage or setup error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

type config struct {
	root     string // repository root: holds cmd/sendlint and bench/mod
	sendlint string // binary to run; built from cmd/sendlint when empty
	targets  []string
	seed     uint64
	ledger   string // ledger to check; "" checks nothing
	out      string // markdown to write; "" writes none
	results  string // also save the findings as JSON here
	render   string // run nothing: read the findings from this -results file
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "precision:", err)
		os.Exit(2)
	}
	ok, err := run(cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "precision:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("precision", flag.ContinueOnError)
	var cfg config
	var targets string
	fs.StringVar(&cfg.root, "root", ".", "repository root")
	fs.StringVar(&cfg.sendlint, "sendlint", "", "sendlint binary (default: built from ./cmd/sendlint)")
	fs.StringVar(&targets, "targets", strings.Join(targetNames(), ","),
		"comma-separated targets; the ledger's sample is drawn over all of them")
	fs.Uint64Var(&cfg.seed, "seed", defaultSeed, "seed of the sample")
	fs.StringVar(&cfg.ledger, "ledger", "", "check that this ledger has a verdict for every sampled finding")
	fs.StringVar(&cfg.out, "o", "", "also write the counts and the sample as markdown to this file")
	fs.StringVar(&cfg.results, "results", "", "also save the findings as JSON in this file")
	fs.StringVar(&cfg.render, "render", "", "run nothing; read the findings from this -results file")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for _, name := range strings.Split(targets, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if _, err := findTarget(name); err != nil {
			return cfg, err
		}
		cfg.targets = append(cfg.targets, name)
	}
	return cfg, nil
}

// run gets the findings, prints the report, writes it with -o, and checks
// the ledger with -ledger; ok is false when the ledger check fails.
func run(cfg config, stdout io.Writer) (ok bool, err error) {
	runs, err := findings(cfg)
	if err != nil {
		return false, err
	}
	if cfg.results != "" {
		if err := saveRuns(cfg.results, runs); err != nil {
			return false, err
		}
	}
	samples := drawSamples(runs, cfg.seed)
	var check *ledgerCheck
	if cfg.ledger != "" {
		rows, err := readLedger(cfg.ledger)
		if err != nil {
			return false, err
		}
		check = checkLedger(rows, samples)
		check.Path = cfg.ledger
		check.Proofs = tallyProofs(runs, rows)
	}
	var report strings.Builder
	writeReport(&report, runs, samples, cfg.seed, check)
	fmt.Fprint(stdout, report.String())
	if cfg.out != "" {
		if err := os.MkdirAll(filepath.Dir(cfg.out), 0o755); err != nil {
			return false, err
		}
		if err := os.WriteFile(cfg.out, []byte(report.String()), 0o644); err != nil {
			return false, err
		}
	}
	return check == nil || check.ok(), nil
}

// findings runs sendlint on every selected target, or reads the findings
// a -results file kept.
func findings(cfg config) ([]targetRun, error) {
	if cfg.render != "" {
		return loadRuns(cfg.render)
	}
	root, err := filepath.Abs(cfg.root)
	if err != nil {
		return nil, err
	}
	r, err := newRunner(root, cfg.sendlint)
	if err != nil {
		return nil, err
	}
	defer r.close()
	var runs []targetRun
	for _, name := range cfg.targets {
		t, _ := findTarget(name) // parseFlags checked the name
		tr, err := r.analyse(t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		runs = append(runs, tr)
	}
	return runs, nil
}
