package golangci

import (
	"flag"
	"fmt"
	"go/ast"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sendlint/sendlint/passes"
)

// fakes returns two analyzers shaped like sendlint's passes: one with
// flags of the usual kinds, one without.
func fakes() []*analysis.Analyzer {
	a := &analysis.Analyzer{Name: "withflags", Doc: "withflags", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	a.Flags.Int("n", 1, "a number")
	a.Flags.Bool("strict", false, "a switch")
	a.Flags.String("list", "", "comma-separated entries")
	b := &analysis.Analyzer{Name: "noflags", Doc: "noflags", Run: a.Run}
	return []*analysis.Analyzer{a, b}
}

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func flagValues(a *analysis.Analyzer) string {
	var parts []string
	a.Flags.VisitAll(func(f *flag.Flag) { parts = append(parts, f.Name+"="+f.Value.String()) })
	return strings.Join(parts, " ")
}

func TestConfigureFlags(t *testing.T) {
	all := fakes()
	got, err := configure(all, map[string]any{
		"withflags": map[string]any{"n": 3, "strict": true, "list": []any{"a.B", "c.D.E"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names(got), []string{"withflags", "noflags"}) {
		t.Errorf("enabled %v, want both", names(got))
	}
	if v, want := flagValues(all[0]), "list=a.B,c.D.E n=3 strict=true"; v != want {
		t.Errorf("flags %s, want %s", v, want)
	}
	// A second configuration does not inherit the first one's flags.
	if _, err := configure(all, nil); err != nil {
		t.Fatal(err)
	}
	if v, want := flagValues(all[0]), "list= n=1 strict=false"; v != want {
		t.Errorf("after reconfiguring: flags %s, want %s", v, want)
	}
}

func TestConfigureEnable(t *testing.T) {
	for _, tc := range []struct {
		settings map[string]any
		want     []string
	}{
		{nil, []string{"withflags", "noflags"}},
		{map[string]any{}, []string{"withflags", "noflags"}},
		{map[string]any{"enable": []any{"noflags"}}, []string{"noflags"}},
		{map[string]any{"disable": []any{"noflags"}}, []string{"withflags"}},
		{map[string]any{"enable": []any{"noflags", "withflags"}, "disable": []any{"noflags"}}, []string{"withflags"}},
	} {
		got, err := configure(fakes(), tc.settings)
		if err != nil {
			t.Errorf("%v: %v", tc.settings, err)
			continue
		}
		if !slices.Equal(names(got), tc.want) {
			t.Errorf("%v: enabled %v, want %v", tc.settings, names(got), tc.want)
		}
	}
}

func TestConfigureStrict(t *testing.T) {
	for _, tc := range []struct {
		settings map[string]any
		want     string
	}{
		{map[string]any{"bogus": 1}, `unknown setting "bogus" (want enable, disable, audit, or a pass: withflags, noflags)`},
		{map[string]any{"withflags": map[string]any{"m": 1}}, "withflags.m: unknown flag (withflags has flags list, n, strict)"},
		{map[string]any{"noflags": map[string]any{"m": 1}}, "noflags.m: unknown flag (noflags has no flags)"},
		{map[string]any{"withflags": map[string]any{"n": "many"}}, `withflags.n: invalid value "many"`},
		{map[string]any{"withflags": map[string]any{"n": map[string]any{"k": 1}}}, "withflags.n: want a string, number, boolean or a list of them"},
		{map[string]any{"withflags": map[string]any{"list": []any{[]any{"x"}}}}, "withflags.list: list element 0 is not a string, number or boolean"},
		{map[string]any{"withflags": 5}, "withflags: want a mapping of flag names to values"},
		{map[string]any{"enable": "noflags"}, "enable: want a list of pass names"},
		{map[string]any{"disable": []any{"nosuch"}}, `disable: no pass named "nosuch"`},
		{map[string]any{"disable": []any{"noflags", "withflags"}}, "enable and disable leave no pass to run"},
	} {
		_, err := configure(fakes(), tc.settings)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.settings, err, tc.want)
		}
	}
}

// TestRegistered checks what golangci-lint sees: the plugin under its
// name, every pass of passes.All(), and the load mode the passes need.
func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin(Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if want := names(passes.All()); !slices.Equal(names(got), want) {
		t.Errorf("analyzers %v, want %v", names(got), want)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", p.GetLoadMode(), register.LoadModeTypesInfo)
	}
	if _, err := newPlugin(map[string]any{"nosuchpass": map[string]any{}}); err == nil ||
		!strings.HasPrefix(err.Error(), "sendlint settings: unknown setting") {
		t.Errorf("bad settings: error %v", err)
	}
}

// sendReporter reports every send statement with two related locations.
var sendReporter = &analysis.Analyzer{
	Name: "sendreporter",
	Doc:  "report sends, with related information",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if s, ok := n.(*ast.SendStmt); ok {
					pass.Report(analysis.Diagnostic{
						Pos:     s.Arrow,
						Message: "send on " + s.Chan.(*ast.Ident).Name,
						Related: []analysis.RelatedInformation{
							{Pos: f.Package, Message: "package clause"},
							{Pos: s.Pos(), Message: "the send"},
						},
					})
				}
				return true
			})
		}
		return nil, nil
	},
}

func TestFoldRelated(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), foldRelated(sendReporter), "fold")
}

// TestConfigureAudit checks that "audit: true" turns on every real pass's
// audit tier, that a pass's own setting wins, and that a non-boolean is an
// error.
func TestConfigureAudit(t *testing.T) {
	all := passes.All()
	defer func() { _, _ = configure(all, nil) }()
	if _, err := configure(all, map[string]any{"audit": true, "lockedsend": map[string]any{"audit": false}}); err != nil {
		t.Fatal(err)
	}
	for _, a := range all {
		want := a.Name != "lockedsend"
		if got := a.Flags.Lookup("audit").Value.String(); got != fmt.Sprint(want) {
			t.Errorf("%s.audit = %s, want %v", a.Name, got, want)
		}
	}
	if _, err := configure(all, map[string]any{"audit": "yes"}); err == nil || !strings.HasPrefix(err.Error(), "audit: want true or false") {
		t.Errorf("audit: yes: error %v", err)
	}
}
