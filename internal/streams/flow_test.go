package streams_test

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/sendlint/sendlint/internal/streams"
)

// carrierList builds the carriers fixture from scratch and renders the
// Flow's exported carriers.
func carrierList(t *testing.T) []string {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadSyntax,
		Dir:  testdata(t),
		Env:  append(os.Environ(), "GOPATH="+testdata(t), "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
		Fset: token.NewFileSet(),
	}
	pkgs, err := packages.Load(cfg, "streams/carriers")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading streams/carriers: %v", err)
	}
	p := pkgs[0]
	flow := defaultMatcher(t).Flow(p.Types, srcFuncs(pkgs)[p], nil)
	var out []string
	for _, c := range flow.Carriers() {
		pos := p.Fset.Position(c.Origin.Pos)
		s := fmt.Sprintf("%s %s", c.Place.Kind, c.Place.Obj.Name())
		if c.Place.Kind == streams.Param || c.Place.Kind == streams.Result {
			s += fmt.Sprintf(" %d", c.Place.Index)
		}
		out = append(out, fmt.Sprintf("%s <- %s at %s:%d", s, c.Origin.Expr, filepath.Base(pos.Filename), pos.Line))
	}
	return out
}

// TestCarriersExported lists what a summary analyzer would export for the
// carriers fixture: fields, package variables, and parameters and results
// of named functions, in source order; no locals, no anonymous functions,
// and no parameter that only ever receives something else.
func TestCarriersExported(t *testing.T) {
	want := []string{
		"field send <- stream.Send at odd.go:21",
		"param set 0 <- stream.Send at odd.go:21",
		"param recursive 0 <- stream.Send at odd.go:64",
		"param forward 0 <- stream.Send at params.go:15",
		"result senderOf 0 <- stream.Send at params.go:31",
		"result pairOf 0 <- stream.Send at params.go:40",
		"global hook <- stream.Send at params.go:54",
		"param forwardGeneric 0 <- stream.Send at params.go:78",
		"field send <- stream.Send at router.go:61",
		"param attach 0 <- stream.Send at router.go:61",
	}
	got := carrierList(t)
	if !slices.Equal(got, want) {
		t.Errorf("Carriers() =\n\t%s\nwant\n\t%s", join(got), join(want))
	}
	// A fresh program gives the same answer: no map order leaks out.
	if again := carrierList(t); !slices.Equal(again, got) {
		t.Errorf("Carriers() differs between builds:\n\t%s\nthen\n\t%s", join(got), join(again))
	}
}

func join(lines []string) string {
	s := ""
	for i, l := range lines {
		if i > 0 {
			s += "\n\t"
		}
		s += l
	}
	return s
}
