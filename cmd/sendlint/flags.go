package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// options are the standalone driver's flags.
type options struct {
	json   bool
	format string
	// baseline hides the findings it accepts; writeBaseline records the
	// current findings instead of reporting them.
	baseline      string
	writeBaseline string
	test          bool
	audit         bool
	fix           bool
	diff          bool
	tags          string
	dir           string
	enabled       map[string]*triState
	// forward holds the analyzer flags to hand to go vet, in command-line
	// order: -<pass>=<bool> and -<pass>.<flag>=<value>.
	forward  []string
	patterns []string
}

// formats are the values of -format.
var formats = []string{"text", "json", "sarif", "github"}

// triState is a pass's enable flag: unset, true or false. As with go vet,
// naming some passes with -<pass> runs only those; -<pass>=false drops one.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (t *triState) IsBoolFlag() bool { return true }

func (t *triState) String() string {
	switch *t {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return ""
}

func (t *triState) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	if v {
		*t = setTrue
	} else {
		*t = setFalse
	}
	return nil
}

// parseFlags parses the standalone command line. Errors are one line.
func parseFlags(analyzers []*analysis.Analyzer, args []string, stdout io.Writer) (*options, error) {
	opts := &options{enabled: make(map[string]*triState)}
	fs := flag.NewFlagSet("sendlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&opts.json, "json", false, "print go vet's JSON (exit 0 even with findings, as go vet does)")
	fs.StringVar(&opts.format, "format", "text", "output `format`: "+strings.Join(formats, ", "))
	fs.StringVar(&opts.baseline, "baseline", "", "report only the findings the baseline `file` does not accept")
	fs.StringVar(&opts.writeBaseline, "write-baseline", "", "record the current findings in `file` as accepted, and exit 0")
	fs.BoolVar(&opts.test, "test", false, "also report findings in test code (_test.go files and test-helper packages); test code is always analysed")
	fs.BoolVar(&opts.audit, "audit", false, "also report the audit tier: sends a pass can neither prove to block nor rule out, labelled [audit: what is missing]")
	fs.BoolVar(&opts.fix, "fix", false, "apply suggested fixes")
	fs.BoolVar(&opts.diff, "diff", false, "with -fix, print the fixes as a diff instead of applying them")
	fs.StringVar(&opts.tags, "tags", "", "comma-separated build tags, as for go build")
	fs.StringVar(&opts.dir, "C", "", "change to `dir` before loading packages")
	for _, a := range analyzers {
		t := new(triState)
		opts.enabled[a.Name] = t
		fs.Var(t, a.Name, "enable "+a.Name+" (naming passes runs only those)")
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			usage(stdout, fs)
			return nil, err
		}
		return nil, err
	}
	if !slices.Contains(formats, opts.format) {
		return nil, fmt.Errorf("invalid value %q for flag -format: want %s", opts.format, strings.Join(formats, ", "))
	}
	if opts.baseline != "" && opts.writeBaseline != "" {
		return nil, fmt.Errorf("-baseline and -write-baseline do not go together: write the baseline from all findings")
	}
	if opts.fix && (opts.baseline != "" || opts.writeBaseline != "") {
		return nil, fmt.Errorf("-fix applies every fix; it does not take -baseline or -write-baseline")
	}
	fs.Visit(func(f *flag.Flag) {
		if _, ok := opts.enabled[f.Name]; ok || strings.Contains(f.Name, ".") {
			opts.forward = append(opts.forward, "-"+f.Name+"="+f.Value.String())
		}
	})
	// Each pass holds its own switches, so that go vet, golangci-lint and
	// nogo can set them too; -test and -audit set them for all passes.
	for _, sw := range []struct {
		on   bool
		name string
	}{{opts.test, "tests"}, {opts.audit, "audit"}} {
		for _, a := range analyzers {
			if sw.on {
				opts.forward = append(opts.forward, "-"+a.Name+"."+sw.name+"=true")
			}
		}
	}
	opts.patterns = fs.Args()
	if len(opts.patterns) == 0 {
		opts.patterns = []string{"."}
	}
	return opts, nil
}

func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, `sendlint finds sends that let one slow or vanished receiver stall everyone.

Usage:
	sendlint [flags] [packages]
	go vet -vettool=$(command -v sendlint) [packages]
	sendlint help [pass]

Exit codes: 0 no findings, 1 errors, 2 bad usage, 3 findings, in every
-format; -json exits 0 with findings, as go vet does.

Flags:
`)
	fs.SetOutput(w)
	fs.PrintDefaults()
}
