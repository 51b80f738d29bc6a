package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// isVetInvocation reports whether go vet is talking to us: the -V=full and
// -flags handshakes, or a unit.cfg naming one package to analyse.
func isVetInvocation(args []string) bool {
	for _, a := range args {
		switch strings.TrimLeft(a, "-") {
		case "V", "V=full", "flags":
			return strings.HasPrefix(a, "-")
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// gcPercent is the collector's target in the vet tool's processes. go vet
// starts one per package, dependencies included, and each builds type
// information and SSA that stay live until it exits: at the default of
// 100 the collector marks that same live data again at every doubling of
// the heap. At 200 it runs about half as often, for 12% less CPU time
// under go vet -vettool on grpc and etcd's server and a few percent more
// peak memory of the process tree. A GOGC in the environment is the
// user's choice and is left alone.
const gcPercent = 200

// The go command caches a package's vet output under a key of package,
// tool and flags that leaves out whether the run was facts-only, and
// replays whichever run filled the entry first to the other: a package
// analysed first as a dependency, its output empty, would report nothing
// when later asked for itself, and a package asked for first would print
// its findings again inside an importer's run. The standalone driver
// therefore asks each run to say which kind it was (marksFlag): it drops
// what dependencies print, and analyses again, under a key of their own
// (askedSetFlag), the packages it asked for whose output came from a
// facts-only run.
const (
	marksFlag    = "marks"
	askedSetFlag = "askedset"

	// The marks, written as go vet JSON for an analyzer of that name with
	// no findings.
	markFactsOnly = "(facts only)"
	markAnalysed  = "(analysed)"
)

// vettool runs the go vet protocol. For a dependency that go vet analyses
// only for its facts (VetxOnly), the passes are replaced by stand-ins that
// keep their names, flags and prerequisites but report nothing: the facts
// are computed, and the checks whose findings would be discarded are not.
func vettool(analyzers []*analysis.Analyzer, args []string) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	flag.Bool(marksFlag, false, "write which kind of run this was, facts-only or analysed (for sendlint's driver)")
	flag.String(askedSetFlag, "", "digest of the packages sendlint's driver asked for, which keeps go vet's cache entries of a second run apart")
	if cfgFile := args[len(args)-1]; strings.HasSuffix(cfgFile, ".cfg") {
		cfg := readUnit(cfgFile)
		if cfg.VetxOnly {
			analyzers = standIns(analyzers)
		}
		if slices.Contains(args, "-"+marksFlag) {
			markRun(analyzers, cfg)
		}
	}
	unitchecker.Main(analyzers...)
}

// unit is what the tool reads of go vet's unit config. An unreadable
// config is left to unitchecker, which reports it.
type unit struct {
	ID       string
	VetxOnly bool
}

func readUnit(cfgFile string) unit {
	var cfg unit
	if data, err := os.ReadFile(cfgFile); err == nil {
		_ = json.Unmarshal(data, &cfg)
	}
	return cfg
}

// markRun makes the fact producers write the run's mark to the output
// before they run: they run in both kinds of run, whichever passes are
// selected.
func markRun(analyzers []*analysis.Analyzer, cfg unit) {
	mark := markAnalysed
	if cfg.VetxOnly {
		mark = markFactsOnly
	}
	var once sync.Once
	write := func() { fmt.Fprintf(os.Stdout, "{%q: {%q: []}}\n", cfg.ID, mark) }
	for _, p := range declaringFacts(analyzers) {
		run := p.Run
		p.Run = func(pass *analysis.Pass) (any, error) {
			once.Do(write)
			return run(pass)
		}
	}
}

// declaringFacts returns the analyzers, among these and all they require,
// that declare facts, each once.
func declaringFacts(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	var out, seen []*analysis.Analyzer
	var walk func(*analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		if slices.Contains(seen, a) {
			return
		}
		seen = append(seen, a)
		if len(a.FactTypes) > 0 {
			out = append(out, a)
		}
		for _, r := range a.Requires {
			walk(r)
		}
	}
	for _, a := range analyzers {
		walk(a)
	}
	return out
}

func standIns(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		out[i] = &analysis.Analyzer{
			Name:     a.Name,
			Doc:      a.Doc,
			URL:      a.URL,
			Flags:    a.Flags,
			Requires: factProducers(a.Requires),
			Run:      func(*analysis.Pass) (any, error) { return nil, nil },
		}
	}
	return out
}

// factProducers keeps the analyzers that produce facts or require one that
// does: a stand-in needs only those, and dropping the rest (buildssa, the
// directive parser) keeps go vet's runs over dependencies cheap.
func factProducers(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range analyzers {
		if len(a.FactTypes) > 0 || len(factProducers(a.Requires)) > 0 {
			out = append(out, a)
		}
	}
	return out
}
