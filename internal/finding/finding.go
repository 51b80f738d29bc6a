// Package finding is the shape of one sendlint finding as the command's
// output formats and its baseline see it, once go vet has reported it: a
// pass, a package, a message, and positions in files. The analysis itself
// never uses it.
package finding

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Position is a place in a file. Line and Col count from 1; Col counts
// bytes, as go/token does. File is absolute when go vet printed it so.
type Position struct {
	File      string
	Line, Col int
}

// ParsePosition parses go vet's "file:line:col" (or "file:line"). What does
// not parse stays in File.
func ParsePosition(s string) Position {
	var p Position
	rest := s
	if i := strings.LastIndex(rest, ":"); i >= 0 {
		if n, err := strconv.Atoi(rest[i+1:]); err == nil {
			p.Col = n
			rest = rest[:i]
		}
	}
	if i := strings.LastIndex(rest, ":"); i >= 0 {
		if n, err := strconv.Atoi(rest[i+1:]); err == nil {
			p.Line = n
			rest = rest[:i]
		}
	}
	if p.Line == 0 && p.Col != 0 {
		// "file:7" is a line, not a column.
		p.Line, p.Col = p.Col, 0
	}
	p.File = rest
	return p
}

// Valid reports whether p names a line of a file.
func (p Position) Valid() bool { return p.File != "" && p.Line > 0 }

// Rel returns p's file relative to dir, with forward slashes, when the file
// lies below dir; otherwise the file as it is, and false.
func (p Position) Rel(dir string) (string, bool) {
	if dir == "" || !filepath.IsAbs(p.File) {
		return filepath.ToSlash(p.File), !filepath.IsAbs(p.File)
	}
	rel, err := filepath.Rel(dir, p.File)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p.File, false
	}
	return filepath.ToSlash(rel), true
}

// Related is a secondary location of a finding: where the channel was made,
// where the lock was taken, which goroutine receives.
type Related struct {
	Pos     Position
	Message string
}

// Finding is one diagnostic of one pass.
type Finding struct {
	Pass    string
	Package string // the import path, without go vet's " [pkg.test]" suffix
	Message string
	Pos     Position
	End     Position // zero when the diagnostic has no extent
	Related []Related
	Audit   bool // an audit-tier finding: shown as a note, not a warning
}

// PackagePath strips the test-variant suffix go vet puts on package IDs,
// "p [p.test]", so that a finding in a test file of p belongs to p.
func PackagePath(id string) string {
	path, _, _ := strings.Cut(id, " ")
	return path
}
