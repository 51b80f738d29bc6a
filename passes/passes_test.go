package passes_test

import (
	"testing"

	"github.com/sendlint/sendlint/internal/directive"
	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/passes"
)

// TestReproductions runs every pass together over the reproductions of
// real systems: each expected finding of each pass, and nothing else, in
// particular nothing at all in the fixed versions.
func TestReproductions(t *testing.T) {
	fixturetest.Run(t, fixturetest.Testdata(t, 1), passes.All(),
		"router/...", "routerfixed/...", "runnerhub/...", "runnerhubfixed/...", "runnerhubregress/...")
}

// TestDirectiveNames checks that every pass can be named in a directive.
func TestDirectiveNames(t *testing.T) {
	for _, a := range passes.All() {
		found := false
		for _, name := range directive.Passes {
			found = found || name == a.Name
		}
		if !found {
			t.Errorf("pass %s is missing from directive.Passes", a.Name)
		}
	}
}
