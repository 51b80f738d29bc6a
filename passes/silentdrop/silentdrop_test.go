package silentdrop_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes/silentdrop"
)

func TestRules(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), silentdrop.Analyzer, "silentdrop")
}
