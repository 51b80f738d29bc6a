package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	sendfinding "github.com/sendlint/sendlint/internal/finding"
	sendreport "github.com/sendlint/sendlint/internal/report"
	"github.com/sendlint/sendlint/passes"
)

// A finding is one diagnostic of one pass in one target, with its file
// relative to the root of the target's module (GOROOT/src for the
// standard library), so that it reads the same on every machine.
type finding struct {
	Module    string // the target's module path, or "std"
	Pass      string
	File      string
	Line, Col int
	Message   string
	Audit     bool // category "audit": sendlint -audit's lower tier
	Related   []related
}

type related struct {
	Where   string // file:line:col, made relative as parseFindings says
	Message string
}

// where is the finding's place as the sample prints it and the ledger
// names it: "module file:line:col".
func (f finding) where() string {
	return f.Module + " " + f.File + ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Col)
}

// vetDiagnostic is the part of a diagnostic in go vet's JSON this file reads.
type vetDiagnostic struct {
	Category string
	Posn     string
	Message  string
	Related  []struct{ Posn, Message string }
}

// parseFindings reads sendlint -format=json, one object
// {"<pkg>": {"<pass>": [diagnostics] or {"error": "..."}}} (a stream of
// them is read too, as go vet prints). It returns the findings, each once
// (a package and its test variant can report the same one), and the
// errors reported instead of diagnostics.
//
// Paths are made relative to the first of roots that holds them: roots[0]
// is the module's root; the others (the module cache, GOROOT/src) place
// related positions in other modules. A path under none stays as it is.
func parseFindings(r io.Reader, module string, roots []string) ([]finding, []string, error) {
	var out []finding
	var errs []string
	seen := map[string]bool{}
	dec := json.NewDecoder(r)
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, nil, fmt.Errorf("reading sendlint's JSON: %v", err)
		}
		// In sorted order a package comes before its test variant
		// ("p [p.test]"), whose copy of a finding is the one dropped.
		for _, pkg := range slices.Sorted(maps.Keys(tree)) {
			byPass := tree[pkg]
			for _, pass := range slices.Sorted(maps.Keys(byPass)) {
				raw := byPass[pass]
				if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
					var e struct{ Error string }
					if err := json.Unmarshal(raw, &e); err != nil {
						return nil, nil, fmt.Errorf("reading sendlint's JSON: %v", err)
					}
					errs = append(errs, fmt.Sprintf("package %s: %s: %s", pkg, pass, e.Error))
					continue
				}
				var diags []vetDiagnostic
				if err := json.Unmarshal(raw, &diags); err != nil {
					return nil, nil, fmt.Errorf("reading sendlint's JSON: %v", err)
				}
				for _, d := range diags {
					f := toFinding(module, pass, d, roots)
					if key := f.Pass + " " + f.where() + " " + f.Message; !seen[key] {
						seen[key] = true
						out = append(out, f)
					}
				}
			}
		}
	}
	sortFindings(out)
	slices.Sort(errs)
	return out, slices.Compact(errs), nil
}

func toFinding(module, pass string, d vetDiagnostic, roots []string) finding {
	pos := sendfinding.ParsePosition(d.Posn)
	f := finding{
		Module:  module,
		Pass:    pass,
		File:    relativeTo(pos, roots),
		Line:    pos.Line,
		Col:     pos.Col,
		Message: d.Message,
		Audit:   d.Category == sendreport.AuditCategory,
	}
	for _, rel := range d.Related {
		p := sendfinding.ParsePosition(rel.Posn)
		where := relativeTo(p, roots) + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
		f.Related = append(f.Related, related{where, rel.Message})
	}
	return f
}

func relativeTo(p sendfinding.Position, roots []string) string {
	for _, root := range roots {
		if rel, ok := p.Rel(root); ok {
			return rel
		}
	}
	return p.File
}

// sortFindings orders findings by module, file, line, column and message,
// then pass: the order the sample is drawn from.
func sortFindings(fs []finding) {
	slices.SortFunc(fs, cmpFindings)
}

func cmpFindings(a, b finding) int {
	return cmp.Or(
		cmp.Compare(a.Module, b.Module),
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Col, b.Col),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Pass, b.Pass),
	)
}

// A tally is one pass's findings in one target, by tier.
type tally struct{ Default, Audit int }

// countTiers counts findings per pass and tier.
func countTiers(fs []finding) map[string]tally {
	counts := map[string]tally{}
	for _, f := range fs {
		t := counts[f.Pass]
		if f.Audit {
			t.Audit++
		} else {
			t.Default++
		}
		counts[f.Pass] = t
	}
	return counts
}

// passNames lists sendlint's passes in the order its documentation does,
// then any other pass the runs reported (from a -sendlint binary that
// has more), sorted.
func passNames(runs []targetRun) []string {
	var names []string
	for _, a := range passes.All() {
		names = append(names, a.Name)
	}
	known := len(names)
	for _, tr := range runs {
		for _, f := range tr.Findings {
			if !slices.Contains(names, f.Pass) {
				names = append(names, f.Pass)
			}
		}
	}
	slices.Sort(names[known:])
	return names
}
