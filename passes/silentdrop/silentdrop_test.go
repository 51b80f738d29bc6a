package silentdrop_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes/silentdrop"
)

// TestRules checks each rule's fixtures in both tiers: drops of owed
// values by default, and those labelled [audit: ...] only with
// -silentdrop.audit.
func TestRules(t *testing.T) {
	testdata := fixturetest.Testdata(t, 2)
	fixturetest.Tiers(t, []*analysis.Analyzer{silentdrop.Analyzer}, func(t fixturetest.T) {
		analysistest.Run(t, testdata, silentdrop.Analyzer, "silentdrop", "silentdrop/testutils")
	})
}

// TestReproductions checks silentdrop's verdicts on the systems the
// fixtures reproduce, which must all be quiet: routerfixed's reply helper
// logs and counts what it drops, runnerhubfixed's enqueue reports a full
// queue to callers that apply their class's contract (refuse the deliver,
// fail the command, warn on the signal), and the router's metrics flush and
// the consumers' wake-ups send struct{} on cap-1 channels.
func TestReproductions(t *testing.T) {
	fixturetest.Run(t, fixturetest.Testdata(t, 2), []*analysis.Analyzer{silentdrop.Analyzer},
		"router/...", "routerfixed/...", "runnerhub/...", "runnerhubfixed/...", "runnerhubregress/...")
}
