package baresend_test

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes/baresend"
)

// TestRules checks each rule's fixtures in both tiers: proven findings by
// default, and those labelled [audit: ...] only with -baresend.audit.
//
// It also checks the related position at a make into a field another
// package declares (foreignfield.go's bumpClose): it names that package,
// since the channel the send is on may be one of its own.
func TestRules(t *testing.T) {
	testdata := fixturetest.Testdata(t, 2)
	var related []string
	fixturetest.Tiers(t, []*analysis.Analyzer{baresend.Analyzer}, func(t fixturetest.T) {
		for _, r := range analysistest.Run(t, testdata, baresend.Analyzer, "baresend", "baresend/cmd/...") {
			for _, d := range r.Diagnostics {
				for _, ri := range d.Related {
					related = append(related, ri.Message)
				}
			}
		}
	})
	const madeElsewhere = "channel made here (cap 1); Updates is a field of package switchkit, which may fill it with channels of its own"
	if !slices.Contains(related, madeElsewhere) {
		t.Errorf("no related position reads %q", madeElsewhere)
	}
}

// TestReproductions checks baresend's verdicts on the systems the fixtures
// reproduce: the router's 16 bare client replies (and its two shared
// sends), and the fixed versions, which must be quiet.
func TestReproductions(t *testing.T) {
	fixturetest.Run(t, fixturetest.Testdata(t, 2), []*analysis.Analyzer{baresend.Analyzer},
		"router/...", "routerfixed/...", "runnerhub/...", "runnerhubfixed/...", "runnerhubregress/...")
}

// TestLivenessFix checks the select baresend suggests when a liveness
// channel is in scope, and that it suggests nothing otherwise.
// The fixture's sends have no receiver in view, so they are audit
// findings; the fix is offered in either tier.
func TestLivenessFix(t *testing.T) {
	fixturetest.Audit(t, baresend.Analyzer)
	analysistest.RunWithSuggestedFixes(t, fixturetest.Testdata(t, 2), baresend.Analyzer, "baresendfix")
}
