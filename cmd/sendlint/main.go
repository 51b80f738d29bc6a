// Command sendlint finds sends that let one slow or vanished receiver stall
// everyone: bare channel sends, sends made while a mutex is held, and stream
// sends reachable from more than one goroutine.
//
// Usage:
//
//	sendlint [flags] [packages]                    analyse packages (default ".")
//	go vet -vettool=$(command -v sendlint) [pkgs]  the same, driven by go vet
//	sendlint help [pass]                           list the passes, or explain one
//	sendlint triage [flags] DUMP... [-- packages]  join findings to goroutine dumps
//
// Output: -format=text (default), json, sarif (SARIF 2.1.0) or github
// (workflow-command annotations); -baseline=FILE reports only the findings
// FILE does not accept, and -write-baseline=FILE records them.
//
// Exit codes, in every format: 0 no findings, 1 errors (a package that does
// not load or type-check, a malformed directive), 2 bad usage, 3 findings.
// -json exits 0 with findings, as go vet -json does.
package main

import (
	"os"

	"github.com/sendlint/sendlint/passes"
)

func main() {
	analyzers := passes.All()
	args := os.Args[1:]
	switch {
	case isVetInvocation(args):
		vettool(analyzers, args)
	case len(args) > 0 && args[0] == "triage":
		os.Exit(runTriage(analyzers, args[1:], os.Stdout, os.Stderr))
	case len(args) > 0 && args[0] == "help":
		os.Exit(help(os.Stdout, os.Stderr, analyzers, args[1:]))
	default:
		os.Exit(standalone(analyzers, args, os.Stdout, os.Stderr))
	}
}
