package ownership_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/internal/ownership"
)

// TestFacts checks the ParamUse facts of a dependency: what each function
// does with its stream and func parameters.
func TestFacts(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), ownership.Analyzer, "singlesender/lib")
}
