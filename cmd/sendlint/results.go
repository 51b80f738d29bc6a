package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sendlint/sendlint/internal/finding"
	sendreport "github.com/sendlint/sendlint/internal/report"
)

// diagnostic is one finding in go vet's JSON form.
type diagnostic struct {
	Category       string            `json:"category,omitempty"`
	Posn           string            `json:"posn"`
	End            string            `json:"end"`
	Message        string            `json:"message"`
	SuggestedFixes []json.RawMessage `json:"suggested_fixes,omitempty"`
	Related        []related         `json:"related,omitempty"`

	pkg, pass string
	pos       finding.Position
}

type related struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

// results is what one run found.
type results struct {
	diags  []*diagnostic
	errors []string
	// marks holds, for each unit go vet ran or replayed, the kinds of
	// run its output came from (see marksFlag).
	marks map[string][]string
}

// parseVetJSON reads go vet's JSON stream: one object per package,
// {"pkg": {"pass": [diagnostics] | {"error": "..."}}}. It keeps the units
// of the packages in asked, and the marks of every unit.
func parseVetJSON(r io.Reader, asked map[string]bool) (*results, error) {
	res := &results{marks: make(map[string][]string)}
	dec := json.NewDecoder(r)
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			return nil, fmt.Errorf("reading go vet's JSON output: %v", err)
		}
		for pkg, passes := range tree {
			for pass, raw := range passes {
				if pass == markAnalysed || pass == markFactsOnly {
					res.marks[pkg] = append(res.marks[pkg], pass)
					continue
				}
				if _, ok := askedPath(pkg, asked); !ok {
					continue
				}
				if err := res.add(pkg, pass, raw); err != nil {
					return nil, err
				}
			}
		}
	}
	res.sort()
	return res, nil
}

// askedPath returns the import path in asked that go vet's id for a unit
// belongs to: the package "p" itself, its test variant "p [p.test]" or its
// external test "p_test [p.test]". A variant built for another package's
// test, "p [q.test]", is a dependency.
func askedPath(id string, asked map[string]bool) (string, bool) {
	path, variant, isVariant := strings.Cut(id, " [")
	if !isVariant {
		return path, asked[path]
	}
	test := strings.TrimSuffix(variant, ".test]")
	return test, asked[test] && (path == test || path == test+"_test")
}

// replayed returns, sorted, the asked packages whose output came only from
// runs that analysed them as a dependency: go vet replayed a facts-only
// run's empty output where findings were asked for. A package with tests
// is analysed through its test variant while the package itself, a
// dependency of the tests, runs facts-only beside it.
func (res *results) replayed(asked map[string]bool) []string {
	factsOnly, analysed := make(map[string]bool), make(map[string]bool)
	for id, marks := range res.marks {
		path, ok := askedPath(id, asked)
		if !ok {
			continue
		}
		for _, m := range marks {
			factsOnly[path] = factsOnly[path] || m == markFactsOnly
			analysed[path] = analysed[path] || m == markAnalysed
		}
	}
	var out []string
	for path := range factsOnly {
		if !analysed[path] {
			out = append(out, path)
		}
	}
	slices.Sort(out)
	return out
}

// merge adds the findings and errors of a second run.
func (res *results) merge(other *results) {
	res.diags = append(res.diags, other.diags...)
	res.errors = append(res.errors, other.errors...)
	res.sort()
}

func (res *results) add(pkg, pass string, raw json.RawMessage) error {
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		var e struct{ Error string }
		if err := json.Unmarshal(raw, &e); err != nil {
			return fmt.Errorf("reading go vet's JSON output: %v", err)
		}
		res.errors = append(res.errors, fmt.Sprintf("package %s: %s", pkg, e.Error))
		return nil
	}
	var diags []*diagnostic
	if err := json.Unmarshal(raw, &diags); err != nil {
		return fmt.Errorf("reading go vet's JSON output: %v", err)
	}
	for _, d := range diags {
		d.pkg, d.pass, d.pos = pkg, pass, finding.ParsePosition(d.Posn)
		res.diags = append(res.diags, d)
	}
	return nil
}

// sort orders diagnostics by place, then pass and message, and drops the
// duplicates a package and its test variant can both report.
func (res *results) sort() {
	slices.SortFunc(res.diags, func(a, b *diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.pos.File, b.pos.File),
			cmp.Compare(a.pos.Line, b.pos.Line),
			cmp.Compare(a.pos.Col, b.pos.Col),
			cmp.Compare(a.pass, b.pass),
			cmp.Compare(a.Message, b.Message),
			cmp.Compare(a.pkg, b.pkg),
		)
	})
	res.diags = slices.CompactFunc(res.diags, func(a, b *diagnostic) bool {
		return a.pos == b.pos && a.pass == b.pass && a.Message == b.Message
	})
	slices.Sort(res.errors)
	res.errors = slices.Compact(res.errors)
}

// findings returns the diagnostics in the form the output formats and the
// baseline take.
func (res *results) findings() []finding.Finding {
	out := make([]finding.Finding, len(res.diags))
	for i, d := range res.diags {
		f := finding.Finding{
			Pass:    d.pass,
			Package: finding.PackagePath(d.pkg),
			Message: d.Message,
			Pos:     d.pos,
			End:     finding.ParsePosition(d.End),
			Audit:   d.Category == sendreport.AuditCategory,
		}
		for _, r := range d.Related {
			f.Related = append(f.Related, finding.Related{Pos: finding.ParsePosition(r.Posn), Message: r.Message})
		}
		out[i] = f
	}
	return out
}

// keep keeps the diagnostics at the given indexes, in order.
func (res *results) keep(indexes []int) {
	kept := make([]*diagnostic, len(indexes))
	for i, j := range indexes {
		kept[i] = res.diags[j]
	}
	res.diags = kept
}

// printText writes one line per finding, with positions relative to dir
// (the current directory when empty), and its related information indented
// below it.
func (res *results) printText(w io.Writer, dir string) {
	cwd, _ := filepath.Abs(dir)
	for _, d := range res.diags {
		fmt.Fprintf(w, "%s: %s (%s)\n", relative(cwd, d.Posn), d.Message, d.pass)
		for _, r := range d.Related {
			fmt.Fprintf(w, "\t%s: %s\n", relative(cwd, r.Posn), r.Message)
		}
	}
}

// printJSON writes one go vet JSON object holding every package, with
// packages and passes in sorted order.
func (res *results) printJSON(w io.Writer) {
	tree := make(map[string]map[string][]*diagnostic)
	for _, d := range res.diags {
		if tree[d.pkg] == nil {
			tree[d.pkg] = make(map[string][]*diagnostic)
		}
		tree[d.pkg][d.pass] = append(tree[d.pkg][d.pass], d)
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		panic(err) // the tree holds only strings and numbers
	}
	fmt.Fprintf(w, "%s\n", data)
}

// relative shortens an absolute position to one relative to dir, as go vet
// prints them, when the file is below dir.
func relative(dir, posn string) string {
	if dir == "" || !filepath.IsAbs(posn) {
		return posn
	}
	if rel, err := filepath.Rel(dir, posn); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return posn
}
