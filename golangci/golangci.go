// Package golangci registers sendlint with golangci-lint v2 as a module
// plugin named "sendlint" (github.com/golangci/plugin-module-register).
//
// Build a golangci-lint that includes it with `golangci-lint custom` and a
// .custom-gcl.yml naming this package, then enable it in .golangci.yml:
//
//	linters:
//	  enable: [sendlint]
//	  settings:
//	    custom:
//	      sendlint:
//	        type: module
//	        settings:
//	          disable: [<pass>, ...]     # passes not to run (default: all run)
//	          audit: true                # also report the audit tier (default: false)
//	          <pass>:                    # a pass's flags, as -<pass>.<flag>=<value>
//	            <flag>: <value>
//
// The settings are checked strictly: an unknown key, an unknown pass or flag,
// or a value a flag rejects fails the run with one line naming the setting.
// They are mapped onto the passes' own flag sets, read from passes.All(), so
// a new pass or flag is configurable here without a change to this package.
// A list value is joined with commas, as the flag would be written on the
// command line.
//
// golangci-lint matches //nolint against the plugin's name, so
// //nolint:sendlint silences every pass on a line; //sendlint:ignore
// <pass> <reason> silences one pass, as in every other driver.
//
// golangci-lint turns a diagnostic's related information into issues of
// their own, at the related line, where a //nolint on the finding's line
// does not reach them. The plugin therefore folds the related locations
// into the message ("... [replies.go:16: channel made here (cap 8)]"), so
// that one finding is one issue.
package golangci

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/sendlint/sendlint/passes"
)

// Name is the linter name the plugin registers, and the name //nolint and
// .golangci.yml use.
const Name = "sendlint"

func init() {
	register.Plugin(Name, New)
}

// plugin is the configured sendlint linter.
type plugin struct {
	analyzers []*analysis.Analyzer
}

// New decodes the settings of linters.settings.custom.sendlint.settings,
// applies them to the passes' flags, and returns the linter.
func New(settings any) (register.LinterPlugin, error) {
	all := passes.All()
	analyzers, err := configure(all, settings)
	if err != nil {
		return nil, fmt.Errorf("sendlint settings: %v", err)
	}
	for i, a := range analyzers {
		analyzers[i] = foldRelated(a)
	}
	return &plugin{analyzers: analyzers}, nil
}

// foldRelated returns an analyzer that runs a and reports its diagnostics
// with their related information appended to the message. It shares a's
// name, flags, prerequisites, result and facts.
func foldRelated(a *analysis.Analyzer) *analysis.Analyzer {
	folded := *a
	folded.Run = func(pass *analysis.Pass) (any, error) {
		inner := *pass
		inner.Analyzer = a
		inner.Report = func(d analysis.Diagnostic) {
			if len(d.Related) > 0 {
				d.Message += " [" + relatedText(pass.Fset, d.Related) + "]"
				d.Related = nil
			}
			pass.Report(d)
		}
		return a.Run(&inner)
	}
	return &folded
}

// relatedText renders related locations as "file.go:16: message; ...".
func relatedText(fset *token.FileSet, related []analysis.RelatedInformation) string {
	parts := make([]string, len(related))
	for i, r := range related {
		p := fset.Position(r.Pos)
		parts[i] = fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, r.Message)
	}
	return strings.Join(parts, "; ")
}

// BuildAnalyzers returns the enabled passes.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return p.analyzers, nil
}

// GetLoadMode asks for type information: the passes build SSA.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

// configure applies settings to the analyzers' flags and returns the
// analyzers to run. Flags that are not set return to their defaults, so
// that configuring twice in one process does not carry the first
// configuration over.
func configure(all []*analysis.Analyzer, settings any) ([]*analysis.Analyzer, error) {
	raw, err := register.DecodeSettings[map[string]json.RawMessage](settings)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(all))
	byName := make(map[string]*analysis.Analyzer)
	for i, a := range all {
		names[i] = a.Name
		byName[a.Name] = a
		if err := resetFlags(a); err != nil {
			return nil, err
		}
	}
	enabled := slices.Clone(all)
	for _, key := range sortedKeys(raw) {
		switch a := byName[key]; {
		case key == "enable" || key == "disable":
			list, err := passList(key, raw[key], byName)
			if err != nil {
				return nil, err
			}
			enabled = slices.DeleteFunc(enabled, func(a *analysis.Analyzer) bool {
				return slices.Contains(list, a.Name) == (key == "disable")
			})
		case key == "audit":
			if err := setAudit(all, raw[key]); err != nil {
				return nil, err
			}
		case a != nil:
			if err := setFlags(a, raw[key]); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("unknown setting %q (want enable, disable, audit, or a pass: %s)", key, strings.Join(names, ", "))
		}
	}
	if len(enabled) == 0 {
		return nil, fmt.Errorf("enable and disable leave no pass to run")
	}
	return enabled, nil
}

// sortedKeys returns the keys of m in an order where enable comes before
// disable, so that "enable: [a, b], disable: [b]" runs a.
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		switch k {
		case "enable":
			return 0
		case "disable":
			return 1
		}
		return 2
	}
	sort.Slice(keys, func(i, j int) bool {
		if ri, rj := rank(keys[i]), rank(keys[j]); ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// passList decodes a list of pass names.
func passList(key string, raw json.RawMessage, byName map[string]*analysis.Analyzer) ([]string, error) {
	var list []string
	if err := strictDecode(raw, &list); err != nil {
		return nil, fmt.Errorf("%s: want a list of pass names: %v", key, err)
	}
	for _, name := range list {
		if byName[name] == nil {
			return nil, fmt.Errorf("%s: no pass named %q", key, name)
		}
	}
	return list, nil
}

// setAudit applies "audit: true", which reports every pass's audit tier as
// the sendlint command's -audit does. A pass's own "<pass>: {audit: ...}"
// is applied after it and wins.
func setAudit(all []*analysis.Analyzer, raw json.RawMessage) error {
	var on bool
	if err := strictDecode(raw, &on); err != nil {
		return fmt.Errorf("audit: want true or false: %v", err)
	}
	for _, a := range all {
		if err := a.Flags.Set("audit", fmt.Sprint(on)); err != nil {
			return fmt.Errorf("audit: %s: %v", a.Name, err)
		}
	}
	return nil
}

// setFlags sets one pass's flags from a mapping of flag name to value.
func setFlags(a *analysis.Analyzer, raw json.RawMessage) error {
	var values map[string]json.RawMessage
	if err := strictDecode(raw, &values); err != nil {
		return fmt.Errorf("%s: want a mapping of flag names to values: %v", a.Name, err)
	}
	flagNames := sortedKeysOf(values)
	for _, name := range flagNames {
		f := a.Flags.Lookup(name)
		if f == nil {
			return fmt.Errorf("%s.%s: unknown flag (%s)", a.Name, name, describeFlags(a))
		}
		s, err := flagValue(values[name])
		if err != nil {
			return fmt.Errorf("%s.%s: %v", a.Name, name, err)
		}
		if err := f.Value.Set(s); err != nil {
			return fmt.Errorf("%s.%s: invalid value %q: %v", a.Name, name, s, err)
		}
	}
	return nil
}

func sortedKeysOf(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// describeFlags lists a pass's flags for an error message.
func describeFlags(a *analysis.Analyzer) string {
	var names []string
	a.Flags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if len(names) == 0 {
		return a.Name + " has no flags"
	}
	return a.Name + " has flags " + strings.Join(names, ", ")
}

// flagValue renders a setting as the text a flag would be given on the
// command line: a string as is, a number or boolean as written, a list as
// its elements joined with commas.
func flagValue(raw json.RawMessage) (string, error) {
	var v any
	if err := strictDecode(raw, &v); err != nil {
		return "", err
	}
	if list, ok := v.([]any); ok {
		parts := make([]string, len(list))
		for i, e := range list {
			s, ok := scalar(e)
			if !ok {
				return "", fmt.Errorf("list element %d is not a string, number or boolean", i)
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	}
	if s, ok := scalar(v); ok {
		return s, nil
	}
	return "", fmt.Errorf("want a string, number, boolean or a list of them")
}

func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return fmt.Sprint(v), true
	case json.Number:
		return v.String(), true
	}
	return "", false
}

func strictDecode(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// resetFlags returns every flag of a to its default value.
func resetFlags(a *analysis.Analyzer) error {
	var err error
	a.Flags.VisitAll(func(f *flag.Flag) {
		if err == nil && f.Value.String() != f.DefValue {
			if e := f.Value.Set(f.DefValue); e != nil {
				err = fmt.Errorf("%s.%s: cannot restore the default %q: %v", a.Name, f.Name, f.DefValue, e)
			}
		}
	})
	return err
}
