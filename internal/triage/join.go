package triage

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sendlint/sendlint/internal/finding"
)

// EntryKind says what the dump makes of a group.
type EntryKind int

// Kinds of entry.
const (
	// Confirmed: goroutines wait where a finding is.
	Confirmed EntryKind = iota
	// LockWait: goroutines want a lock; Holders are the lockedsend
	// findings that hold it across a send, when there are some.
	LockWait
	// Unexplained: goroutines parked on a send, or in a select with a send
	// case, where no finding is: what the analysis missed.
	Unexplained
)

func (k EntryKind) String() string {
	return [...]string{"confirmed", "lock", "unexplained"}[k]
}

// Entry is one group with what the analysis says about it.
type Entry struct {
	Kind     EntryKind
	Group    *Group
	Findings []finding.Finding // Confirmed: the findings at the site, or where it blocks in a dependency
	Holders  []finding.Finding // LockWait: lockedsend findings whose lock the goroutines want
	// Match says how Holders were matched: "same Lock call" when a finding's
	// lock was taken on the line the goroutines wait at, "same lock name"
	// when the line locks a lock of the finding's name in its package.
	Match string
}

// Promoted reports whether every finding of a confirmed entry is of the
// audit tier: the dump promotes them.
func (e *Entry) Promoted() bool {
	for _, f := range e.Findings {
		if !f.Audit {
			return false
		}
	}
	return len(e.Findings) > 0
}

// Report is the join of an analysis and the findings.
type Report struct {
	*Analysis
	Entries []*Entry // most goroutines first
	Other   []*Group // blocked goroutines nothing explains that are not on a send
}

// Wedged reports whether the report holds what exit code 3 stands for:
// confirmed findings, lock waits held by a finding, unexplained sends;
// unless several dumps show that the goroutines there move on.
func (r *Report) Wedged() bool {
	for _, e := range r.Entries {
		if t := e.Group.Trend; t != nil && t.Verdict == Moving {
			continue
		}
		if e.Kind != LockWait || len(e.Holders) > 0 {
			return true
		}
	}
	return false
}

// Join matches the groups to findings by line: a finding is on the line a
// group waits at, in the main module or in a dependency.
func Join(a *Analysis, findings []finding.Finding) *Report {
	at := make(map[lineKey][]finding.Finding)
	for _, f := range findings {
		k := lineKey{filepath.Clean(f.Pos.File), f.Pos.Line}
		at[k] = append(at[k], f)
	}
	r := &Report{Analysis: a}
	for _, g := range a.Groups {
		fs := at[lineKey{filepath.Clean(g.Site.File), g.Site.Line}]
		if g.Inner != nil {
			fs = append(fs, at[lineKey{filepath.Clean(g.Inner.File), g.Inner.Line}]...)
		}
		switch {
		case len(fs) > 0:
			r.Entries = append(r.Entries, &Entry{Kind: Confirmed, Group: g, Findings: fs})
		case g.Kind.Lock():
			holders, match := lockHolders(g, findings)
			r.Entries = append(r.Entries, &Entry{Kind: LockWait, Group: g, Holders: holders, Match: match})
		case g.Kind == Send || g.SelectSends:
			r.Entries = append(r.Entries, &Entry{Kind: Unexplained, Group: g})
		default:
			r.Other = append(r.Other, g)
		}
	}
	return r
}

type lineKey struct {
	file string
	line int
}

// lockHolders finds the lockedsend findings whose lock the goroutines of a
// lock wait want. The dump does not say which lock that is; the lock
// position does: a finding whose lock was taken on the very line they wait
// at holds it. Failing that, a finding in the same package whose lock has
// the name the line locks ("s.lock locked here", and the line reads
// "sr.lock.Lock()") likely does.
func lockHolders(g *Group, findings []finding.Finding) ([]finding.Finding, string) {
	var same, named []finding.Finding
	text := sourceLine(g.Site.File, g.Site.Line)
	for _, f := range findings {
		if f.Pass != "lockedsend" {
			continue
		}
		for _, rel := range f.Related {
			name, ok := lockName(rel.Message)
			if !ok {
				continue
			}
			if filepath.Clean(rel.Pos.File) == filepath.Clean(g.Site.File) && rel.Pos.Line == g.Site.Line {
				same = append(same, f)
				break
			}
			if filepath.Dir(rel.Pos.File) == filepath.Dir(g.Site.File) && locksName(text, name) {
				named = append(named, f)
				break
			}
		}
	}
	switch {
	case len(same) > 0:
		return same, "same Lock call"
	case len(named) > 0:
		return named, "same lock name"
	}
	return nil, ""
}

// lockName reads the lock out of lockedsend's related message
// "s.lock locked here" or "s.mu read-locked here": its last selector.
func lockName(msg string) (string, bool) {
	for _, suffix := range []string{" read-locked here", " locked here"} {
		if expr, ok := strings.CutSuffix(msg, suffix); ok {
			return expr[strings.LastIndex(expr, ".")+1:], true
		}
	}
	return "", false
}

// locksName reports whether a source line locks a lock called name:
// x.name.Lock(), name.RLock(), and so on.
func locksName(line, name string) bool {
	for _, m := range []string{".Lock(", ".RLock("} {
		if strings.Contains(line, "."+name+m) || strings.HasPrefix(strings.TrimSpace(line), name+m) {
			return true
		}
	}
	return false
}

func sourceLine(file string, line int) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}
