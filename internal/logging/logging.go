// Package logging recognises the calls that make an event visible: a
// logger's output methods, metric and counter updates, and the calls that
// end the process or the goroutine. It matches them by package and name
// (Classify), and, for functions of other modules that wrap them, through
// the summary's Logs fact.
package logging

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Kind classifies a call.
type Kind int

const (
	None   Kind = iota // not known: judged by the other rules
	Quiet              // known to leave no trace
	Logs               // writes a log line
	Counts             // updates a metric, a counter or an atomic
	Exits              // ends the process or the goroutine
)

// Classify says what a call to f does, by f's package and name, and for a
// method by its receiver type. Packages are matched by import path, so a
// user type that happens to have a Warn method is not a logger unless its
// type is named like one (see byShape).
func Classify(f *types.Func, recv string) Kind {
	if f.Pkg() == nil {
		return None // error.Error and other universe methods
	}
	path, name := f.Pkg().Path(), f.Name()
	if rule, ok := known[path]; ok {
		if k := rule(recv, name); k != None {
			return k
		}
	}
	for _, p := range knownPrefix {
		if strings.HasPrefix(path, p.prefix) {
			if k := p.rule(recv, name); k != None {
				return k
			}
		}
	}
	return byShape(recv, name)
}

// RecvName returns the name of the receiver type of the method a call
// names, without the pointer; "" for a function. For an interface method
// it is the type of the value the method is invoked on: the abstract
// method's own receiver may be the bare interface.
func RecvName(cc *ssa.CallCommon, f *types.Func) string {
	var t types.Type
	if cc.IsInvoke() {
		t = cc.Value.Type()
	} else if sig, ok := f.Type().(*types.Signature); ok && sig.Recv() != nil {
		t = sig.Recv().Type()
	} else {
		return ""
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		return t.Obj().Name()
	case *types.Interface:
		return "" // a method of an unnamed interface
	}
	return ""
}

type rule func(recv, name string) Kind

// known maps an import path to what its functions and methods do.
var known = map[string]rule{
	"log":      logLevels,
	"log/slog": logLevels,
	"os":       only(Exits, "Exit"),
	"runtime":  only(Exits, "Goexit"),
	"testing":  testingLog,
	"fmt":      only(Logs, "Print", "Printf", "Println"),
	"sync":     only(Quiet, "Put"), // a dropped value returned to a pool is still dropped
	"expvar":   only(Counts, "Add", "AddFloat", "Set", "SetString"),
	"sync/atomic": func(_, name string) Kind {
		if strings.HasPrefix(name, "Load") {
			return None
		}
		return Counts
	},
	"go.uber.org/zap":                                logLevels,
	"github.com/rs/zerolog":                          zerolog,
	"github.com/rs/zerolog/log":                      logLevels,
	"github.com/sirupsen/logrus":                     logLevels,
	"k8s.io/klog":                                    logLevels,
	"k8s.io/klog/v2":                                 logLevels,
	"github.com/golang/glog":                         logLevels,
	"github.com/go-logr/logr":                        logLevels,
	"github.com/hashicorp/go-hclog":                  logLevels,
	"github.com/go-kit/log":                          only(Logs, "Log"),
	"github.com/go-kit/kit/log":                      only(Logs, "Log"),
	"go.opencensus.io/stats":                         prefixed(Counts, "Record"),
	"github.com/prometheus/client_golang/prometheus": only(Counts, "Inc", "Add", "Dec", "Sub", "Set", "Observe", "SetToCurrentTime"),
	"github.com/rcrowley/go-metrics":                 only(Counts, "Inc", "Dec", "Mark", "Update", "Observe"),
	"github.com/go-kit/kit/metrics":                  only(Counts, "Add", "Set", "Observe"),
}

// knownPrefix maps import path prefixes (a module and its packages) to
// rules.
var knownPrefix = []struct {
	prefix string
	rule   rule
}{
	{"google.golang.org/grpc/grpclog", logLevels},
	{"google.golang.org/grpc/internal/grpclog", logLevels},
	{"github.com/nats-io/nats-server/v2/logger", logLevels},
	{"go.opentelemetry.io/otel/metric", only(Counts, "Add", "Record")},
	{"github.com/armon/go-metrics", prefixed(Counts, "Incr", "AddSample", "SetGauge", "SetPrecisionGauge", "MeasureSince", "EmitKey")},
	{"github.com/hashicorp/go-metrics", prefixed(Counts, "Incr", "AddSample", "SetGauge", "SetPrecisionGauge", "MeasureSince", "EmitKey")},
}

func only(k Kind, names ...string) rule {
	return func(_, name string) Kind {
		for _, n := range names {
			if name == n {
				return k
			}
		}
		return None
	}
}

func prefixed(k Kind, prefixes ...string) rule {
	return func(_, name string) Kind {
		for _, p := range prefixes {
			if strings.HasPrefix(name, p) {
				return k
			}
		}
		return None
	}
}

// levels are the names loggers give their output methods, longest first
// so that Warning is tried before Warn.
var levels = []string{
	"Emergency", "Critical", "Warning", "DPanic", "Notice", "Debug", "Error", "Fatal",
	"Panic", "Print", "Trace", "Alert", "Info", "Warn", "Exit", "Log", "V",
}

// levelSuffixes are what loggers append to a level name: Infof, Infoln,
// Infow (zap), InfoS (klog), InfoContext (slog), InfoDepth (klog, glog),
// LogAttrs (slog).
var levelSuffixes = map[string]bool{
	"": true, "f": true, "ln": true, "w": true, "S": true, "Context": true, "Ctx": true,
	"Depth": true, "Depthf": true, "SDepth": true, "Attrs": true, "Fn": true, "fFn": true,
}

// isLevelName reports whether name is a logging method: a level name with
// one of the usual suffixes.
func isLevelName(name string) bool {
	for _, l := range levels {
		if rest, ok := strings.CutPrefix(name, l); ok && levelSuffixes[rest] {
			return l != "V" || rest == "" // klog.V(2) is not output; V(2).Info is
		}
	}
	return false
}

func logLevels(_, name string) Kind {
	if name != "V" && isLevelName(name) || name == "Output" {
		return Logs
	}
	return None
}

// testingLog: (*testing.T).Log and its kin on T, B, F and TB. Error and
// Fatal mark the test failed, which is louder than a log.
func testingLog(recv, name string) Kind {
	switch recv {
	case "T", "B", "F", "TB", "common":
	default:
		return None
	}
	switch name {
	case "Log", "Logf", "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow":
		return Logs
	}
	return None
}

// zerolog writes when an event is sent: log.Warn().Msg("dropped").
func zerolog(recv, name string) Kind {
	switch {
	case recv == "Event" && (name == "Msg" || name == "Msgf" || name == "MsgFunc" || name == "Send"):
		return Logs
	case recv == "Logger" && (name == "Print" || name == "Printf" || name == "Log"):
		return Logs
	}
	return None
}

// byShape recognises loggers and metrics of packages the tables do not
// name, by type and method together, never by method name alone: a level
// method (Warnf, Error, Infow...) on a type whose name ends in Logger or
// Log, and an update method (Inc, Add, Mark, Observe...) on a type whose
// name ends in Counter, Gauge, Meter, Histogram, Summary, Observer, Timer
// or Metric(s).
func byShape(recv, name string) Kind {
	if recv == "" {
		return None
	}
	if strings.HasSuffix(recv, "Logger") || strings.HasSuffix(recv, "Log") || recv == "logger" || recv == "log" {
		if name != "V" && isLevelName(name) {
			return Logs
		}
	}
	lower := strings.ToLower(recv)
	for _, suffix := range []string{"counter", "gauge", "meter", "histogram", "summary", "observer", "timer", "metric", "metrics"} {
		if strings.HasSuffix(lower, suffix) {
			switch name {
			case "Inc", "Incr", "Increment", "Add", "Dec", "Sub", "Mark", "Observe", "Record", "Update", "Set":
				return Counts
			}
		}
	}
	return None
}

// Call classifies a call: what the function or interface method it names
// does by Classify, or Logs for fmt.Fprint... on os.Stdout or os.Stderr.
func Call(cc *ssa.CallCommon) Kind {
	f := Callee(cc)
	if f == nil {
		return None
	}
	if k := Classify(f, RecvName(cc, f)); k != None {
		return k
	}
	if fprintToStd(cc, f) {
		return Logs
	}
	return None
}

// Callee returns the function or interface method a call names.
func Callee(cc *ssa.CallCommon) *types.Func {
	if cc.IsInvoke() {
		return cc.Method
	}
	if fn := cc.StaticCallee(); fn != nil {
		if f, ok := fn.Object().(*types.Func); ok {
			return f
		}
		if fn.Origin() != nil {
			if f, ok := fn.Origin().Object().(*types.Func); ok {
				return f
			}
		}
	}
	return nil
}

// fprintToStd reports a call of fmt.Fprint, Fprintf or Fprintln on
// os.Stdout or os.Stderr: a command's way of logging.
func fprintToStd(cc *ssa.CallCommon, f *types.Func) bool {
	if f.Pkg() == nil || f.Pkg().Path() != "fmt" || !strings.HasPrefix(f.Name(), "Fprint") || len(cc.Args) == 0 {
		return false
	}
	w := cc.Args[0]
	if mi, ok := w.(*ssa.MakeInterface); ok {
		w = mi.X
	}
	load, ok := w.(*ssa.UnOp)
	if !ok {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "os" && (g.Name() == "Stdout" || g.Name() == "Stderr")
}
