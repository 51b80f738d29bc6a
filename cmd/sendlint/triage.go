package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/sendlint/sendlint/internal/finding"
	"github.com/sendlint/sendlint/internal/triage"
)

const triageHelp = `triage: join findings to the goroutine dumps of a wedged process

Usage:
	sendlint triage [flags] DUMP... [-- packages]

A wedged server shows in one place: its goroutine dump, where hundreds of
goroutines sit in [chan send, 4123 minutes] on one line and others behind
them in [sync.Mutex.Lock]. triage reads the dumps, maps their file paths
onto the module in the current directory (or -C dir), analyses the packages
where goroutines wait, and prints, most goroutines first:

  confirmed     goroutines wait on the line of a finding: the finding, how
                many goroutines, the longest wait. An audit-tier finding the
                dump confirms is promoted and says so.
  lock          goroutines wait for a mutex, and the lockedsend finding that
                holds it across a send, when there is one.
  unexplained   goroutines parked on a send, or in a select with a send
                case, where there is no finding: what the analysis missed.

A goroutine blocked inside a dependency (grpc's stream Send) or the runtime
is attributed to its innermost frame in the module: the line to change.

Dumps: the text of /debug/pprof/goroutine?debug=2 or ?debug=1, a SIGQUIT or
crash traceback, and the goroutine leak profile (goroutineleak, Go 1.26 with
GOEXPERIMENT=goroutineleakprofile) at debug=1 or debug=2. Give several
dumps of one process taken minutes apart to tell a wedge (the same
goroutines, waiting longer) from a queue that moves.

Paths: absolute build paths, -trimpath module paths, GOPATH and vendor
layouts and module-cache paths (pkg/mod/module@version/...) are found by
the functions' import paths in the module's build list; a dependency is
analysed only at the version the dump names. Where that fails,
-map from=to replaces a path prefix of the dump.

Packages after -- are analysed too.

Exit codes: 0 no goroutine of the module blocked on a send, 1 errors (an
unreadable dump, a dump of another program), 2 bad usage, 3 confirmed or
unexplained blocked sends.

Flags:
	-C dir          the module the dump was taken from (default .)
	-format f       text (default), json or sarif
	-map from=to    replace a path prefix of the dump; repeatable
	-tags t         build tags, as for go build
`

type rewrites []triage.Rewrite

func (r *rewrites) String() string { return "" }

func (r *rewrites) Set(s string) error {
	rw, err := triage.ParseRewrite(s)
	if err != nil {
		return err
	}
	*r = append(*r, rw)
	return nil
}

type triageOptions struct {
	dir, format, tags string
	maps              rewrites
	dumps, packages   []string
}

func parseTriageFlags(args []string) (*triageOptions, error) {
	opts := new(triageOptions)
	fs := flag.NewFlagSet("sendlint triage", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&opts.dir, "C", "", "the module the dump was taken from")
	fs.StringVar(&opts.format, "format", "text", "text, json or sarif")
	fs.StringVar(&opts.tags, "tags", "", "build tags")
	fs.Var(&opts.maps, "map", "from=to")
	if i := slices.Index(args, "--"); i >= 0 {
		opts.packages = args[i+1:]
		args = args[:i]
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if f := opts.format; f != "text" && f != "json" && f != "sarif" {
		return nil, fmt.Errorf("invalid value %q for flag -format: want text, json or sarif", f)
	}
	opts.dumps = fs.Args()
	if len(opts.dumps) == 0 {
		return nil, fmt.Errorf("triage needs a goroutine dump")
	}
	return opts, nil
}

// runTriage is `sendlint triage`: parse the dumps, analyse the packages
// they wait in, join the two.
func runTriage(analyzers []*analysis.Analyzer, args []string, stdout, stderr io.Writer) int {
	opts, err := parseTriageFlags(args)
	if err == flag.ErrHelp {
		fmt.Fprint(stdout, triageHelp)
		return exitClean
	}
	if err != nil {
		fmt.Fprintf(stderr, "sendlint triage: %v (run 'sendlint help triage' for usage)\n", err)
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "sendlint triage: %v\n", err)
		return exitError
	}
	var dumps []*triage.Dump
	for _, file := range opts.dumps {
		d, err := triage.ReadFile(file)
		if err != nil {
			return fail(err)
		}
		dumps = append(dumps, d)
	}
	dir, err := filepath.Abs(opts.dir)
	if err != nil {
		return fail(err)
	}
	bl, err := triage.LoadBuildList(dir)
	if err != nil {
		return fail(err)
	}
	a, err := triage.Analyze(dumps, triage.NewMapper(bl, opts.maps))
	if err != nil {
		return fail(err)
	}
	findings, err := triageFindings(analyzers, opts, append(a.Packages, opts.packages...))
	if err != nil {
		return fail(err)
	}
	r := triage.Join(a, findings)
	root := bl.Main.Dir
	switch opts.format {
	case "json":
		err = r.JSON(stdout, root)
	case "sarif":
		err = r.SARIF(sarifInput(analyzers, &results{}, nil, root)).Write(stdout)
	default:
		r.Text(stdout, root)
	}
	if err != nil {
		return fail(err)
	}
	if r.Wedged() {
		return exitFindings
	}
	return exitClean
}

// triageFindings runs the analysis, in audit mode, on the packages.
func triageFindings(analyzers []*analysis.Analyzer, opts *triageOptions, packages []string) ([]finding.Finding, error) {
	if len(packages) == 0 {
		return nil, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find its own executable: %v", err)
	}
	vopts := &options{dir: opts.dir, tags: opts.tags, patterns: packages, forward: auditFlags(analyzers)}
	res, err := vet(exe, vopts)
	if err != nil {
		return nil, err
	}
	if len(res.errors) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(res.errors, "; "))
	}
	return res.findings(), nil
}

// auditFlags turns on every pass's audit tier: the dump is what tells a
// real wedge from a lower-confidence guess.
func auditFlags(analyzers []*analysis.Analyzer) []string {
	var out []string
	for _, a := range analyzers {
		out = append(out, "-"+a.Name+".audit=true")
	}
	return out
}
