package summary

import (
	"flag"
	"fmt"
	"go/token"
	"strings"

	"github.com/sendlint/sendlint/internal/streams"
)

// The summary's configuration lives in its Analyzer's FlagSet and nowhere
// else. The passes that use the summary offer the same flag.Values under
// their own names (-lockedsend.blocking, -lockedsend.streams) with
// ShareFlags, so that a driver which registers only the passes still sets
// what the summary reads, in every package go vet analyses, dependencies
// included.
const (
	blockingFlag = "blocking"
	streamsFlag  = "streams"
)

func init() {
	Analyzer.Flags.Var(&listFlag{check: checkBlocking}, blockingFlag,
		"comma-separated functions and methods that block like a stream send: pkg/path.Func or pkg/path.Type.Method")
	Analyzer.Flags.Var(&listFlag{check: checkStream}, streamsFlag,
		"comma-separated extra stream types, pkg/path.Type: their Send, SendMsg and SendAndClose block")
}

// ShareFlags registers the summary's flags on fs under the same names, so
// that setting -<pass>.blocking on a pass sets the summary's value.
func ShareFlags(fs *flag.FlagSet) {
	Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		fs.Var(f.Value, f.Name, f.Usage)
	})
}

// listFlag is a comma-separated list whose entries are checked as they are
// set, so that a bad entry stops the run with one line naming it.
type listFlag struct {
	entries []string
	check   func(string) error
}

func (l *listFlag) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(l.entries, ",")
}

func (l *listFlag) Set(s string) error {
	var entries []string
	for e := range strings.SplitSeq(s, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if err := l.check(e); err != nil {
			return err
		}
		entries = append(entries, e)
	}
	l.entries = entries
	return nil
}

func checkStream(e string) error {
	_, err := streams.NewMatcher([]string{e}, nil)
	return err
}

func checkBlocking(e string) error {
	if _, err := streams.NewMatcher(nil, []string{e}); err == nil {
		return nil
	}
	if _, _, ok := parseFunc(e); ok {
		return nil
	}
	return fmt.Errorf("malformed blocking entry %q: want pkg/path.Func or pkg/path.Type.Method", e)
}

// parseFunc splits pkg/path.Func. The name is taken after the last dot,
// which must follow the last slash.
func parseFunc(e string) (path, name string, ok bool) {
	i := strings.LastIndexByte(e, '.')
	if i <= 0 || i < strings.LastIndexByte(e, '/') {
		return "", "", false
	}
	path, name = e[:i], e[i+1:]
	if !token.IsIdentifier(name) || strings.ContainsAny(path, " \t\"'`()*[],;:") {
		return "", "", false
	}
	for elem := range strings.SplitSeq(path, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return "", "", false
		}
	}
	return path, name, true
}

// config is what one run reads from the flags.
type config struct {
	matcher *streams.Matcher
	// funcs holds the configured blocking functions by package path and
	// name. An entry such as gopkg.in/yaml.v3.Marshal is ambiguous between
	// a method and a function; it is kept as both and matches whichever
	// exists.
	funcs map[string]map[string]bool
}

func readConfig(fs *flag.FlagSet) (*config, error) {
	blocking := fs.Lookup(blockingFlag).Value.(*listFlag).entries
	extra := fs.Lookup(streamsFlag).Value.(*listFlag).entries
	var methods []string
	cfg := &config{funcs: make(map[string]map[string]bool)}
	for _, e := range blocking {
		if _, err := streams.NewMatcher(nil, []string{e}); err == nil {
			methods = append(methods, e)
		}
		if path, name, ok := parseFunc(e); ok {
			if cfg.funcs[path] == nil {
				cfg.funcs[path] = make(map[string]bool)
			}
			cfg.funcs[path][name] = true
		}
	}
	m, err := streams.NewMatcher(extra, methods)
	if err != nil {
		return nil, err
	}
	cfg.matcher = m
	return cfg, nil
}
