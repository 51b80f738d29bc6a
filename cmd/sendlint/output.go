package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"

	"github.com/sendlint/sendlint/internal/analyzerdoc"
	"github.com/sendlint/sendlint/internal/baseline"
	"github.com/sendlint/sendlint/internal/github"
	"github.com/sendlint/sendlint/internal/sarif"
)

// report filters the results through -baseline, prints them in
// the chosen format, and returns the exit code, which is the same in every
// format: errors 1, findings 3, else 0 (-json: 0 with findings, as go vet).
func report(analyzers []*analysis.Analyzer, res *results, opts *options, stdout, stderr io.Writer) int {
	if opts.writeBaseline != "" {
		return writeBaseline(res, opts, stderr)
	}
	var prints []string
	src := baseline.NewSources()
	if opts.baseline != "" || opts.format == "sarif" {
		prints = baseline.Fingerprints(res.findings(), src)
	}
	var summary string
	if opts.baseline != "" {
		b, err := baseline.Read(opts.baseline)
		if err != nil {
			fmt.Fprintf(stderr, "sendlint: %v\n", err)
			return exitError
		}
		r := b.Compare(prints)
		res.keep(r.New)
		kept := make([]string, len(r.New))
		for i, j := range r.New {
			kept[i] = prints[j]
		}
		prints = kept
		summary = r.Summary(opts.baseline)
	}
	root, _ := os.Getwd()
	for _, e := range res.errors {
		if opts.format == "github" && !opts.json {
			github.Error(stderr, e)
		} else {
			fmt.Fprintf(stderr, "sendlint: %s\n", e)
		}
	}
	switch {
	case opts.json, opts.format == "json":
		res.printJSON(stdout)
	case opts.format == "sarif":
		if err := sarifLog(analyzers, res, prints, root).Write(stdout); err != nil {
			fmt.Fprintf(stderr, "sendlint: writing SARIF: %v\n", err)
			return exitError
		}
	case opts.format == "github":
		github.Annotations(stdout, res.findings(), root)
	default:
		res.printText(stdout, opts.dir)
	}
	if summary != "" {
		fmt.Fprintf(stderr, "sendlint: %s\n", summary)
	}
	switch {
	case len(res.errors) > 0:
		return exitError
	case len(res.diags) > 0 && !opts.json:
		return exitFindings
	}
	return exitClean
}

// writeBaseline records every current finding as accepted. A run with
// errors writes nothing: the packages that failed would be missing from it.
func writeBaseline(res *results, opts *options, stderr io.Writer) int {
	for _, e := range res.errors {
		fmt.Fprintf(stderr, "sendlint: %s\n", e)
	}
	if len(res.errors) > 0 {
		fmt.Fprintf(stderr, "sendlint: baseline %s not written: some packages were not analysed\n", opts.writeBaseline)
		return exitError
	}
	dir, _ := os.Getwd()
	if opts.dir != "" {
		dir = opts.dir
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	b := baseline.New(res.findings(), baseline.NewSources(), dir)
	if err := b.Write(opts.writeBaseline); err != nil {
		fmt.Fprintf(stderr, "sendlint: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stderr, "sendlint: baseline %s: %d %s accepted\n", opts.writeBaseline, b.Total(), pluralFindings(b.Total()))
	return exitClean
}

func pluralFindings(n int) string {
	if n == 1 {
		return "finding"
	}
	return "findings"
}

// sarifLog builds the SARIF log, with one rule per pass whose help is what
// `sendlint help <pass>` prints.
func sarifLog(analyzers []*analysis.Analyzer, res *results, prints []string, root string) *sarif.Log {
	return sarif.Build(sarifInput(analyzers, res, prints, root))
}

func sarifInput(analyzers []*analysis.Analyzer, res *results, prints []string, root string) sarif.Input {
	in := sarif.Input{
		ToolName:       "sendlint",
		ToolVersion:    version(),
		InformationURI: "https://github.com/sendlint/sendlint",
		Findings:       res.findings(),
		Fingerprints:   prints,
		Errors:         res.errors,
		Root:           root,
	}
	for _, a := range analyzers {
		in.Rules = append(in.Rules, sarif.RuleDoc{
			ID:       a.Name,
			Title:    analyzerdoc.Title(a.Doc),
			Help:     passHelp(a),
			Markdown: analyzerdoc.Markdown(a.Doc) + "\n" + suppressMarkdown(a),
			URL:      a.URL,
		})
	}
	return in
}

// version is the sendlint module's version when it was installed with go
// install module@version, and "" for a build from a clone.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "(devel)" {
		return ""
	}
	return bi.Main.Version
}
