package lockedsend_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes/lockedsend"
)

// TestReproductions checks lockedsend's verdicts on the systems the
// fixtures reproduce.
func TestReproductions(t *testing.T) {
	fixturetest.Run(t, fixturetest.Testdata(t, 2), []*analysis.Analyzer{lockedsend.Analyzer},
		"router/...", "routerfixed/...", "runnerhub/...", "runnerhubfixed/...", "runnerhubregress/...")
}
