package triage

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sendlint/sendlint/internal/finding"
	"github.com/sendlint/sendlint/internal/sarif"
)

// Text writes the report for a person, positions relative to root.
func (r *Report) Text(w io.Writer, root string) {
	for _, d := range r.Dumps {
		fmt.Fprintf(w, "dump %s: %s, %d goroutines\n", d.Name, d.Format, d.Total())
	}
	for _, e := range r.Entries {
		g := e.Group
		switch e.Kind {
		case Confirmed:
			label := "confirmed"
			if e.Promoted() {
				label = "confirmed audit finding, promoted by the dump"
			}
			fmt.Fprintf(w, "%s: %s\n", label, r.describe(g, root))
			writeTrend(w, g.Trend)
			writeFindings(w, e.Findings, root, ", audit, promoted by the dump")
		case LockWait:
			if len(e.Holders) == 0 {
				fmt.Fprintf(w, "lock: %s: no lockedsend finding holds this lock\n", r.describe(g, root))
				writeTrend(w, g.Trend)
				continue
			}
			fmt.Fprintf(w, "lock: %s want the lock this finding holds across a send (%s):\n", r.describe(g, root), e.Match)
			writeTrend(w, g.Trend)
			writeFindings(w, e.Holders, root, ", audit")
		case Unexplained:
			what := "a send"
			if g.Kind == Select {
				what = "a select with a send case"
			}
			fmt.Fprintf(w, "unexplained: %s: parked on %s, and no finding is here\n", r.describe(g, root), what)
			writeTrend(w, g.Trend)
		}
	}
	if len(r.Other) > 0 {
		fmt.Fprintf(w, "other waits, not on a send: %s\n", countStates(r.Other))
	}
	if len(r.Outside) > 0 {
		fmt.Fprintf(w, "blocked outside the module's code: %s\n", countMap(r.Outside))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: not found here: %s\n", n)
	}
	if len(r.Entries) == 0 {
		fmt.Fprintln(w, "no goroutine of the module is blocked on a send or a lock")
	}
}

func writeTrend(w io.Writer, t *Trend) {
	if line := trendLine(t); line != "" {
		fmt.Fprintf(w, "\t%s\n", line)
	}
}

// writeFindings writes findings below an entry; audit says what an audit
// finding's label is there.
func writeFindings(w io.Writer, fs []finding.Finding, root, audit string) {
	for _, f := range fs {
		tier := ""
		if f.Audit {
			tier = audit
		}
		fmt.Fprintf(w, "\t%s: %s (%s%s)\n", relPos(f.Pos, root), f.Message, f.Pass, tier)
		for _, rel := range f.Related {
			fmt.Fprintf(w, "\t\t%s: %s\n", relPos(rel.Pos, root), rel.Message)
		}
	}
}

// trendLine says what several dumps tell of a group, or "".
func trendLine(t *Trend) string {
	switch {
	case t == nil:
		return ""
	case t.Verdict == Wedged:
		return fmt.Sprintf("wedged: %d of them waited here across %d dumps, %d+ minutes apart", t.Waited, t.Dumps, t.Elapsed)
	case t.Verdict == Moving:
		return fmt.Sprintf("moving: none of the %d here in the first of %d dumps waited through", t.First, t.Dumps)
	}
	return fmt.Sprintf("unclear across %d dumps: no goroutine ids (debug=1), or dumps under a minute apart", t.Dumps)
}

// describe says how many goroutines wait, on what, where, for how long.
func (r *Report) describe(g *Group, root string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s [%s", g.Count, plural(g.Count, "goroutine"), g.State)
	if g.Longest > 0 {
		fmt.Fprintf(&b, ", up to %d minutes", g.Longest)
	}
	if g.Leaked > 0 {
		fmt.Fprintf(&b, ", %d leaked", g.Leaked)
	}
	fmt.Fprintf(&b, "] at %s:%d in %s", relFile(g.Site.File, root), g.Site.Line, shortFunc(g.Site.Func))
	if g.Inner != nil {
		fmt.Fprintf(&b, ", blocked inside %s (%s:%d)", shortFunc(g.InnerFunc), relFile(g.Inner.File, root), g.Inner.Line)
	}
	return b.String()
}

func countStates(groups []*Group) string {
	n := make(map[string]int)
	for _, g := range groups {
		n[g.State] += g.Count
	}
	return countMap(n)
}

func countMap(n map[string]int) string {
	states := slices.Sorted(maps.Keys(n))
	slices.SortStableFunc(states, func(a, b string) int { return n[b] - n[a] })
	parts := make([]string, len(states))
	for i, s := range states {
		parts[i] = fmt.Sprintf("%d %s", n[s], s)
	}
	return strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// shortFunc drops the directories of a function's import path:
// example.com/m/hub.(*Hub).Run is hub.(*Hub).Run.
func shortFunc(fn string) string {
	dir, base := path.Split(fn)
	if dir == "" || strings.Contains(base, ".") {
		return base
	}
	return fn
}

func relFile(file, root string) string {
	rel, _ := finding.Position{File: file}.Rel(root)
	return rel
}

func relPos(p finding.Position, root string) string {
	s := fmt.Sprintf("%s:%d", relFile(p.File, root), p.Line)
	if p.Col > 0 {
		s += fmt.Sprintf(":%d", p.Col)
	}
	return s
}

// JSON writes the report as one JSON object.
func (r *Report) JSON(w io.Writer, root string) error {
	out := jsonReport{Entries: []jsonEntry{}, Outside: r.Outside, Notes: r.Notes}
	for _, d := range r.Dumps {
		out.Dumps = append(out.Dumps, jsonDump{File: d.Name, Format: d.Format, Goroutines: d.Total()})
	}
	for _, e := range r.Entries {
		je := jsonEntry{jsonGroup: jsonGroupOf(e.Group, root), Kind: e.Kind.String(), Promoted: e.Promoted(), Match: e.Match}
		for _, f := range e.Findings {
			je.Findings = append(je.Findings, jsonFindingOf(f, root))
		}
		for _, f := range e.Holders {
			je.Holders = append(je.Holders, jsonFindingOf(f, root))
		}
		out.Entries = append(out.Entries, je)
	}
	for _, g := range r.Other {
		out.Other = append(out.Other, jsonGroupOf(g, root))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "\t")
	return enc.Encode(out)
}

type jsonReport struct {
	Dumps   []jsonDump     `json:"dumps"`
	Entries []jsonEntry    `json:"entries"`
	Other   []jsonGroup    `json:"other,omitempty"`
	Outside map[string]int `json:"outside,omitempty"`
	Notes   []string       `json:"notes,omitempty"`
}

type jsonDump struct {
	File       string `json:"file"`
	Format     string `json:"format"`
	Goroutines int    `json:"goroutines"`
}

type jsonGroup struct {
	State       string     `json:"state"`
	Position    string     `json:"position"`
	Function    string     `json:"function"`
	Goroutines  int        `json:"goroutines"`
	Longest     int        `json:"longest_wait_minutes"`
	Leaked      int        `json:"leaked,omitempty"`
	SelectSends bool       `json:"select_with_send,omitempty"`
	Inside      *jsonFrame `json:"blocked_inside,omitempty"`
	Trend       *Trend     `json:"trend,omitempty"`
}

type jsonFrame struct {
	Position string `json:"position"`
	Function string `json:"function"`
}

type jsonEntry struct {
	jsonGroup
	Kind     string        `json:"kind"`
	Promoted bool          `json:"promoted,omitempty"`
	Findings []jsonFinding `json:"findings,omitempty"`
	Holders  []jsonFinding `json:"lock_held_by,omitempty"`
	Match    string        `json:"match,omitempty"`
}

type jsonFinding struct {
	Pass     string        `json:"pass"`
	Category string        `json:"category,omitempty"`
	Posn     string        `json:"posn"`
	Message  string        `json:"message"`
	Related  []jsonRelated `json:"related,omitempty"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

func jsonGroupOf(g *Group, root string) jsonGroup {
	jg := jsonGroup{
		State: g.State, Position: fmt.Sprintf("%s:%d", relFile(g.Site.File, root), g.Site.Line),
		Function: g.Site.Func, Goroutines: g.Count, Longest: g.Longest, Leaked: g.Leaked,
		SelectSends: g.SelectSends, Trend: g.Trend,
	}
	if g.Inner != nil {
		jg.Inside = &jsonFrame{Position: fmt.Sprintf("%s:%d", relFile(g.Inner.File, root), g.Inner.Line), Function: g.InnerFunc}
	}
	return jg
}

func jsonFindingOf(f finding.Finding, root string) jsonFinding {
	jf := jsonFinding{Pass: f.Pass, Posn: relPos(f.Pos, root), Message: f.Message}
	if f.Audit {
		jf.Category = "audit"
	}
	for _, r := range f.Related {
		jf.Related = append(jf.Related, jsonRelated{Posn: relPos(r.Pos, root), Message: r.Message})
	}
	return jf
}

// UnexplainedRule is the SARIF rule of unexplained blocked sends.
var UnexplainedRule = sarif.RuleDoc{
	ID:    "unexplained",
	Title: "goroutines parked on a send where sendlint has no finding",
	Help: "A goroutine dump shows goroutines parked on this send, or in this select with a send case, " +
		"and no sendlint finding is on the line: a send the analysis missed, or one that waits on a receiver that is only slow.",
}

// SARIF fills in the results of a SARIF log: one per confirmed finding and
// per lock holder, with the runtime evidence in its properties, and one per
// unexplained site.
func (r *Report) SARIF(in sarif.Input) *sarif.Log {
	in.Findings, in.Properties = nil, []map[string]any{}
	in.Rules = append(in.Rules, UnexplainedRule)
	for _, e := range r.Entries {
		props := evidence(e.Group, in.Root)
		switch e.Kind {
		case Confirmed:
			props["triage"] = "confirmed"
			if e.Promoted() {
				props["triage"] = "confirmed audit finding, promoted by the dump"
			}
			for _, f := range e.Findings {
				in.Findings = append(in.Findings, f)
				in.Properties = append(in.Properties, props)
			}
		case LockWait:
			props["triage"] = "holds the lock that goroutines wait for (" + e.Match + ")"
			for _, f := range e.Holders {
				in.Findings = append(in.Findings, f)
				in.Properties = append(in.Properties, props)
			}
		case Unexplained:
			props["triage"] = "unexplained"
			in.Findings = append(in.Findings, finding.Finding{
				Pass:    UnexplainedRule.ID,
				Package: e.Group.Site.Pkg,
				Message: fmt.Sprintf("%d %s parked here [%s] and no finding explains it", e.Group.Count, plural(e.Group.Count, "goroutine"), e.Group.State),
				Pos:     finding.Position{File: e.Group.Site.File, Line: e.Group.Site.Line},
			})
			in.Properties = append(in.Properties, props)
		}
	}
	return sarif.Build(in)
}

func evidence(g *Group, root string) map[string]any {
	props := map[string]any{
		"goroutines":         g.Count,
		"longestWaitMinutes": g.Longest,
		"state":              g.State,
		"waitsAt":            fmt.Sprintf("%s:%d", filepath.ToSlash(relFile(g.Site.File, root)), g.Site.Line),
		"function":           g.Site.Func,
	}
	if g.Leaked > 0 {
		props["leaked"] = g.Leaked
	}
	if g.Trend != nil {
		props["trend"] = g.Trend.Verdict
	}
	return props
}
