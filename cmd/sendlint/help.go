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
		fmt.Fprintln(stdout, "\nRun 'sendlint help <pass>' for a pass's documentation, with wrong and right code.")
		return exitClean
	}
	code := exitClean
	for _, name := range args {
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
	fmt.Fprintf(w, "%s: %s\n", a.Name, strings.TrimSpace(a.Doc))
	var flags []string
	a.Flags.VisitAll(func(f *flag.Flag) {
		flags = append(flags, fmt.Sprintf("  -%s.%s\n\t%s (default %q)", a.Name, f.Name, f.Usage, f.DefValue))
	})
	if len(flags) > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s\n", strings.Join(flags, "\n"))
	}
}
