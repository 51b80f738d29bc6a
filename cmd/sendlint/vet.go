package main

import (
	"encoding/json"
	"flag"
	"os"
	"runtime/debug"
	"strings"

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

// askedSetFlag carries, from the standalone driver, a digest of the
// packages it asked go vet for. The go command caches a package's vet
// output under a key of package, tool and flags that leaves out whether
// the run was facts-only, and replays whichever run filled the entry first
// to the other: a package analysed first as a dependency, its output
// empty, would report nothing when later asked for itself, and a package
// asked for first would print its findings again inside an importer's run.
// The flag is part of the key, so each set of asked packages has entries
// of its own, in which every package is always asked for or always a
// dependency. The tool ignores its value.
const askedSetFlag = "askedset"

// vettool runs the go vet protocol. For a dependency that go vet analyses
// only for its facts (VetxOnly), the passes are replaced by stand-ins that
// keep their names, flags and prerequisites but report nothing: the facts
// are computed, and the checks whose findings would be discarded are not.
func vettool(analyzers []*analysis.Analyzer, args []string) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	flag.String(askedSetFlag, "", "digest of the packages sendlint's driver asked for, which keeps go vet's cache entries of different sets apart")
	if cfg := args[len(args)-1]; strings.HasSuffix(cfg, ".cfg") && factsOnly(cfg) {
		analyzers = standIns(analyzers)
	}
	unitchecker.Main(analyzers...)
}

// factsOnly reports whether the unit config asks only for facts. An
// unreadable config is left to unitchecker, which reports it.
func factsOnly(cfgFile string) bool {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return false
	}
	var cfg struct{ VetxOnly bool }
	return json.Unmarshal(data, &cfg) == nil && cfg.VetxOnly
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
