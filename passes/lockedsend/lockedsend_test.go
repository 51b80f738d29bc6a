package lockedsend_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes/lockedsend"
)

// TestRules checks each rule's fixtures in both tiers: cycles, sends that
// can block forever and stream sends by default, and the rest, labelled
// [audit: ...], only with -lockedsend.audit.
func TestRules(t *testing.T) {
	testdata := fixturetest.Testdata(t, 2)
	fixturetest.Tiers(t, []*analysis.Analyzer{lockedsend.Analyzer}, func(t fixturetest.T) {
		analysistest.Run(t, testdata, lockedsend.Analyzer, "lockedsend", "lockedsend/dedupe", "lockedsend/cmd/...")
	})
}

// TestOneRootOneFinding checks that one send reached along five chains
// under one lock is one finding, at the first chain by position, with
// three of the others as related information and a count of the rest.
func TestOneRootOneFinding(t *testing.T) {
	fixturetest.Audit(t, lockedsend.Analyzer)
	results := analysistest.Run(t, fixturetest.Testdata(t, 2), lockedsend.Analyzer, "lockedsend/dedupe")
	also := relatedOf(results, "call to l.post can block while l.mu is held", "also reached here")
	want := []string{
		"also reached here, in (*ledger).secondSameRoot",
		"also reached here, in (*ledger).thirdSameRoot",
		"also reached here, in (*ledger).fourthSameRoot (and 1 more)",
	}
	checkRelated(t, "related paths", also, want)
}

// TestReproductions checks lockedsend's verdicts on the systems the
// fixtures reproduce: the router's two replies and reconnect request under
// s.lock, the runner hub's three sends under sendMu and the delivery
// consumer's gate held across DispatchControl, the regression's push under
// r.mu, and the fixed versions, which must be quiet.
func TestReproductions(t *testing.T) {
	fixturetest.Run(t, fixturetest.Testdata(t, 2), []*analysis.Analyzer{lockedsend.Analyzer},
		"router/...", "routerfixed/...", "runnerhub/...", "runnerhubfixed/...", "runnerhubregress/...")
}

// TestConfigured sets the pass's flags as a user would. The flags live in
// the analyzer's FlagSet, so this test does not run in parallel.
func TestConfigured(t *testing.T) {
	setFlag(t, "blocking", "lockedsend/configured.Client.Publish,lockedsend/configured.Flush")
	setFlag(t, "streams", "lockedsend/configured.Pipe")
	analysistest.Run(t, fixturetest.Testdata(t, 2), lockedsend.Analyzer, "lockedsend/configured")
}

// TestBadFlag checks that a malformed entry is refused with one line that
// names it.
func TestBadFlag(t *testing.T) {
	for _, tc := range []struct{ flag, value, want string }{
		{"blocking", "Publish", `malformed blocking entry "Publish": want pkg/path.Func or pkg/path.Type.Method`},
		{"blocking", "example.com/pkg.T.M,bad entry.X", `malformed blocking entry "bad entry.X"`},
		{"streams", "example.com/pkg", `malformed stream type "example.com/pkg": want pkg/path.Type`},
	} {
		before := lockedsend.Analyzer.Flags.Lookup(tc.flag).Value.String()
		err := lockedsend.Analyzer.Flags.Set(tc.flag, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("-%s=%s: got error %v, want one line containing %q", tc.flag, tc.value, err, tc.want)
		}
		if after := lockedsend.Analyzer.Flags.Lookup(tc.flag).Value.String(); after != before {
			t.Errorf("-%s=%s: a refused value changed the flag from %q to %q", tc.flag, tc.value, before, after)
		}
	}
}

func setFlag(t *testing.T, name, value string) {
	t.Helper()
	old := lockedsend.Analyzer.Flags.Lookup(name).Value.String()
	if err := lockedsend.Analyzer.Flags.Set(name, value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := lockedsend.Analyzer.Flags.Set(name, old); err != nil {
			t.Fatal(err)
		}
	})
}

// TestContenders checks that a finding points at the goroutines that
// wait: the other functions that take the held lock in a mode that waits
// for it. Under a read lock those are the writers (set, Drop, Rename,
// Reset, Close), not Get's read; the constructor's take of a lock on an
// object it just made waits for no one. Three are listed, the last
// counting the rest.
func TestContenders(t *testing.T) {
	fixturetest.Audit(t, lockedsend.Analyzer)
	results := analysistest.Run(t, fixturetest.Testdata(t, 2), lockedsend.Analyzer, "lockedsend")
	got := relatedOf(results, "stream send stream.Send can block while s.mu is held", "is taken here too")
	want := []string{
		"s.mu is taken here too, in (*gaugeServer).set",
		"s.mu is taken here too, in (*gaugeServer).Drop",
		"s.mu is taken here too, in (*gaugeServer).Rename (and 2 more)",
	}
	checkRelated(t, "contenders", got, want)
}

// relatedOf returns the related messages that contain part, of the first
// diagnostic whose message starts with prefix: a package and its test
// variant report the same finding, and one is enough.
func relatedOf(results []*analysistest.Result, prefix, part string) []string {
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.HasPrefix(d.Message, prefix) {
				continue
			}
			var out []string
			for _, rel := range d.Related {
				if strings.Contains(rel.Message, part) {
					out = append(out, rel.Message)
				}
			}
			return out
		}
	}
	return nil
}

func checkRelated(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
