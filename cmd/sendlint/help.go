package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/sendlint/sendlint/internal/analyzerdoc"
)

// help lists the passes, or prints one pass's documentation and flags.
func help(stdout, stderr io.Writer, analyzers []*analysis.Analyzer, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(stdout, "sendlint finds sends that let one slow or vanished receiver stall everyone.")
		fmt.Fprintln(stdout, "\nPasses:")
		for _, a := range analyzers {
			fmt.Fprintf(stdout, "  %-13s %s\n", a.Name, analyzerdoc.Title(a.Doc))
		}
		fmt.Fprintln(stdout, "\nRun 'sendlint help <pass>' for a pass's documentation, with wrong and right code,")
		fmt.Fprintln(stdout, "and 'sendlint help triage' for joining findings to the goroutine dump of a wedged process.")
		return exitClean
	}
	code := exitClean
	for _, name := range args {
		if name == "triage" {
			fmt.Fprint(stdout, triageHelp)
			continue
		}
		a := find(analyzers, name)
		if a == nil {
			fmt.Fprintf(stderr, "sendlint: no pass named %q (run 'sendlint help' for the list)\n", name)
			code = exitUsage
			continue
		}
		printDoc(stdout, a)
	}
	return code
}

func find(analyzers []*analysis.Analyzer, name string) *analysis.Analyzer {
	for _, a := range analyzers {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func printDoc(w io.Writer, a *analysis.Analyzer) {
	fmt.Fprintf(w, "%s: %s", a.Name, passHelp(a))
}

// passHelp is a pass's documentation as `sendlint help <pass>` prints it
// and as each SARIF rule carries it: the pass's doc.go, how to suppress a
// finding in every driver, and the pass's flags.
func passHelp(a *analysis.Analyzer) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(a.Doc) + "\n\n")
	b.WriteString(suppressText(a))
	var flags []string
	a.Flags.VisitAll(func(f *flag.Flag) {
		flags = append(flags, fmt.Sprintf("  -%s.%s\n\t%s (default %q)", a.Name, f.Name, f.Usage, f.DefValue))
	})
	if len(flags) > 0 {
		fmt.Fprintf(&b, "\nFlags:\n%s\n", strings.Join(flags, "\n"))
	}
	return b.String()
}

// suppressText says how to silence one finding of pass in every driver.
// The directive is spelled out unless the pass's documentation already
// shows it.
func suppressText(a *analysis.Analyzer) string {
	var b strings.Builder
	if !strings.Contains(a.Doc, "//sendlint:ignore "+a.Name) {
		fmt.Fprintf(&b, "Suppress a finding with a reason, on its line or the line above:\n\n\t//sendlint:ignore %s <reason>\n\n", a.Name)
		b.WriteString("A directive without a reason, or one that suppresses nothing, is itself\nreported.\n\n")
	}
	b.WriteString(`Under golangci-lint, //nolint:sendlint silences every sendlint pass
on its line. To accept all of today's findings and fail only on new ones,
record them with -write-baseline=FILE and run with -baseline=FILE.
`)
	return b.String()
}

// suppressMarkdown is suppressText for SARIF rule help.
func suppressMarkdown(a *analysis.Analyzer) string {
	var b strings.Builder
	if !strings.Contains(a.Doc, "//sendlint:ignore "+a.Name) {
		fmt.Fprintf(&b, "Suppress a finding with a reason, on its line or the line above:\n\n```go\n//sendlint:ignore %s <reason>\n```\n\n", a.Name)
		b.WriteString("A directive without a reason, or one that suppresses nothing, is itself reported.\n\n")
	}
	b.WriteString("Under golangci-lint, `//nolint:sendlint` silences every sendlint pass on its line. " +
		"To accept all of today's findings and fail only on new ones, record them with " +
		"`-write-baseline=FILE` and run with `-baseline=FILE`.\n")
	return b.String()
}
