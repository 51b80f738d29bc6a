package triage

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Site is the line of the main module a goroutine waits at: its innermost
// frame in the main module, the line the user can change.
type Site struct {
	File string // the local file
	Line int
	Func string
	Pkg  string
}

// Group is the blocked goroutines of one state at one site.
type Group struct {
	State string
	Kind  Kind
	Site  Site
	// Inner is where the goroutines block when that is inside a dependency
	// (grpc's stream Send, say): its innermost frame outside the main
	// module and the standard library. Nil otherwise.
	Inner       *Place
	InnerFunc   string
	Count       int
	Longest     int // minutes
	Leaked      int
	SelectSends bool // a select with a send case
	Trend       *Trend
	ids         map[int]int // goroutine id → minutes
}

// Trend compares a group with the first of several dumps of one process.
type Trend struct {
	Dumps   int    `json:"dumps"`
	First   int    `json:"in_first_dump"`     // goroutines at this site and state in the first dump
	Waited  int    `json:"waited_throughout"` // of those, how many waited here from the first dump to the last
	Elapsed int    `json:"elapsed_minutes"`   // minutes between the dumps, at least, as the waits tell
	Verdict string `json:"verdict"`
}

// Verdicts of a Trend.
const (
	Wedged  = "wedged"  // the same goroutines, waiting longer
	Moving  = "moving"  // the goroutines here changed: the queue moves
	Unclear = "unclear" // no ids (debug=1), or waits that tell no time passed
)

// Analysis is what the dumps show, mapped onto the module.
type Analysis struct {
	Dumps  []*Dump
	Groups []*Group // from the last dump, most goroutines first
	// Outside counts blocked goroutines with no frame in the main module,
	// by state: the runtime's, the standard library's, dependencies'.
	Outside  map[string]int
	Packages []string // what to analyse: ./dir in the main module, import paths of dependencies
	Notes    []string // frames that were not found on disk, once each
	mapper   *Mapper
	src      *sources
}

// Analyze groups the blocked goroutines of the last dump, compares them
// with the first when there are several, and names the packages to
// analyse. A dump none of whose goroutines runs the main module's code is
// an error: it is of another program, or its paths need -map.
func Analyze(dumps []*Dump, m *Mapper) (*Analysis, error) {
	a := &Analysis{Dumps: dumps, Outside: make(map[string]int), mapper: m, src: newSources()}
	for _, d := range dumps {
		if !a.touchesMain(d) {
			return nil, fmt.Errorf("%s: no goroutine runs code of module %s (%s): the dump is of another program, or its paths need -map from=to",
				d.Name, m.BuildList.Main.Path, m.BuildList.Main.Dir)
		}
	}
	last := a.group(dumps[len(dumps)-1], true)
	if len(dumps) > 1 {
		first := a.group(dumps[0], false)
		elapsed := elapsedMinutes(first, last)
		for k, g := range last {
			g.Trend = trend(first[k], g, len(dumps), elapsed, dumps[0].Format == FormatDebug1)
		}
	}
	for _, g := range last {
		a.Groups = append(a.Groups, g)
	}
	slices.SortFunc(a.Groups, func(x, y *Group) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Site.File, y.Site.File),
			cmp.Compare(x.Site.Line, y.Site.Line), cmp.Compare(x.State, y.State))
	})
	a.Packages = a.packages()
	slices.Sort(a.Notes)
	a.Notes = slices.Compact(a.Notes)
	return a, nil
}

func (a *Analysis) touchesMain(d *Dump) bool {
	for _, g := range d.Goroutines {
		for _, f := range g.Frames {
			if a.mapper.Map(f).Where == MainModule {
				return true
			}
		}
	}
	return false
}

type groupKey struct {
	kind  Kind
	state string
	site  Site
	inner string
}

// group groups one dump's blocked goroutines. Only the last dump's
// unmapped frames are noted and its outside waits counted.
func (a *Analysis) group(d *Dump, last bool) map[groupKey]*Group {
	groups := make(map[groupKey]*Group)
	for _, g := range d.Goroutines {
		site, inner, innerFunc, ok := a.locate(g.Frames, last)
		state := a.state(g, site, ok)
		kind := kindOf(state)
		if !kind.Blocking() {
			continue
		}
		if !ok {
			if last {
				a.Outside[state] += g.Count
			}
			continue
		}
		k := groupKey{kind, state, site, ""}
		if inner != nil {
			k.inner = fmt.Sprintf("%s:%d", inner.File, inner.Line)
		}
		grp := groups[k]
		if grp == nil {
			grp = &Group{State: state, Kind: kind, Site: site, Inner: inner, InnerFunc: innerFunc, ids: make(map[int]int)}
			grp.SelectSends = kind == Select && a.src.selectSends(site.File, site.Line)
			groups[k] = grp
		}
		grp.Count += g.Count
		grp.Longest = max(grp.Longest, g.Minutes)
		if g.Leaked {
			grp.Leaked += g.Count
		}
		if g.ID != 0 {
			grp.ids[g.ID] = g.Minutes
		}
	}
	return groups
}

// locate finds a goroutine's site, and where it blocks when that is in a
// dependency.
func (a *Analysis) locate(frames []Frame, note bool) (site Site, inner *Place, innerFunc string, ok bool) {
	for _, f := range frames {
		p := a.mapper.Map(f)
		switch p.Where {
		case MainModule:
			return Site{File: p.File, Line: p.Line, Func: f.Func, Pkg: p.Pkg}, inner, innerFunc, true
		case Dependency:
			if inner == nil {
				inner, innerFunc = &p, f.Func
			}
		case Unmapped:
			if note {
				a.Notes = append(a.Notes, fmt.Sprintf("%s:%d (%s): %s", f.File, f.Line, f.Func, p.Why))
			}
		}
	}
	return Site{}, nil, "", false
}

// state is the goroutine's state as printed or, in a debug=1 profile, as
// its frames and then its source line tell.
func (a *Analysis) state(g Goroutine, site Site, ok bool) string {
	if g.State != "" {
		return g.State
	}
	if s := stateFromFrames(g.Frames); s != "" {
		return s
	}
	if ok && len(g.Frames) > 0 && a.mapper.Map(g.Frames[0]).Where == MainModule {
		return a.src.stateAt(site.File, site.Line)
	}
	return ""
}

// elapsedMinutes is the longest growth of one goroutine's wait between
// the dumps: at least that much time passed between them.
func elapsedMinutes(first, last map[groupKey]*Group) int {
	before := make(map[int]int)
	for _, g := range first {
		for id, m := range g.ids {
			before[id] = m
		}
	}
	elapsed := 0
	for _, g := range last {
		for id, m := range g.ids {
			if b, ok := before[id]; ok {
				elapsed = max(elapsed, m-b)
			}
		}
	}
	return elapsed
}

// trend says whether the goroutines at a site in the last dump are the
// ones of the first, waiting since: a goroutine that waited throughout
// has waited at least the elapsed time longer (less a minute of rounding).
func trend(first, last *Group, dumps, elapsed int, noIDs bool) *Trend {
	t := &Trend{Dumps: dumps, Elapsed: elapsed, Verdict: Unclear}
	if first == nil {
		t.Verdict = Moving
		if noIDs {
			t.Verdict = Unclear
		}
		return t
	}
	t.First = first.Count
	if noIDs || elapsed == 0 {
		return t
	}
	for id, m := range last.ids {
		if b, ok := first.ids[id]; ok && m-b >= max(1, elapsed-1) {
			t.Waited++
		}
	}
	t.Verdict = Moving
	if t.Waited > 0 {
		t.Verdict = Wedged
	}
	return t
}

// packages lists what to analyse: the packages of the sites, and of the
// dependencies' frames where goroutines block.
func (a *Analysis) packages() []string {
	root := a.mapper.BuildList.Main.Dir
	var out []string
	for _, g := range a.Groups {
		if rel, err := filepath.Rel(root, filepath.Dir(g.Site.File)); err == nil {
			out = append(out, "./"+strings.TrimPrefix(filepath.ToSlash(rel), "./"))
		}
		if g.Inner != nil {
			out = append(out, g.Inner.Pkg)
		}
	}
	for i, p := range out {
		if p == "./." {
			out[i] = "."
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
