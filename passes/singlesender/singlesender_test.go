package singlesender_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes/singlesender"
)

// TestReproductions checks singlesender's verdicts on the systems the
// fixtures reproduce: the runner hub's three sends through the stored
// Send, the regression's fast path, and the quiet router and fixed hub.
func TestReproductions(t *testing.T) {
	fixturetest.Run(t, fixturetest.Testdata(t, 2), []*analysis.Analyzer{singlesender.Analyzer},
		"router/...", "routerfixed/...", "runnerhub/...", "runnerhubfixed/...", "runnerhubregress/...")
}

func TestRules(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), singlesender.Analyzer, "singlesender")
}
