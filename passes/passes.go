// Package passes lists sendlint's analyzers, for drivers that run them all:
// the sendlint command, the golangci-lint plugin, and Bazel's nogo.
package passes

import (
	"golang.org/x/tools/go/analysis"

	"github.com/sendlint/sendlint/passes/baresend"
	"github.com/sendlint/sendlint/passes/lockedsend"
	"github.com/sendlint/sendlint/passes/silentdrop"
	"github.com/sendlint/sendlint/passes/singlesender"
)

// All returns the analyzers in the order their documentation lists them.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{baresend.Analyzer, lockedsend.Analyzer, singlesender.Analyzer, silentdrop.Analyzer}
}
