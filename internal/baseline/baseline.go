// Package baseline lets a team adopt sendlint on code that already has
// findings: it records today's findings in a file, and later runs report
// only the findings that file does not hold.
//
// A finding is recognised by a fingerprint of its pass, its package, the
// function declaration that encloses it, its message, and the normalized
// text of its line (Go tokens without comments or spacing). Line and column
// numbers are left out, so edits elsewhere in the file that move the line
// keep it accepted; an edit of the line itself, a rename of the function,
// or a change of what the pass says about it makes it new. Identical
// fingerprints (the same send written twice in one function) are counted,
// so a third copy of an accepted pair is still new.
//
// The file is JSON, sorted, one entry per fingerprint, with the fields that
// make it up kept for people reading a diff of it.
package baseline

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/sendlint/sendlint/internal/finding"
)

// Version is the format version this package reads and writes.
const Version = 1

// Entry is one accepted finding, or Count identical ones.
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Pass        string `json:"pass"`
	Package     string `json:"package"`
	Function    string `json:"function,omitempty"`
	Message     string `json:"message"`
	Snippet     string `json:"snippet,omitempty"`
	File        string `json:"file,omitempty"` // where it was, for readers; not part of the fingerprint
	Count       int    `json:"count"`
}

// File is a baseline file.
type File struct {
	Version  int     `json:"version"`
	Tool     string  `json:"tool"`
	Findings []Entry `json:"findings"`
}

// Key is what identifies one finding.
type Key struct {
	Pass, Package, Function, Message, Snippet string
}

// Fingerprint hashes the key.
func (k Key) Fingerprint() string {
	h := sha256.New()
	for _, part := range []string{k.Pass, k.Package, k.Function, k.Message, k.Snippet} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// positionInText matches a file position quoted in a message
// ("router.go:98:22"); its numbers are dropped from the key, as the
// finding's own line is.
var positionInText = regexp.MustCompile(`(\.go):\d+(:\d+)?`)

// KeyOf computes the key of f, reading its source through src.
func KeyOf(f finding.Finding, src *Sources) Key {
	return Key{
		Pass:     f.Pass,
		Package:  finding.PackagePath(f.Package),
		Function: src.Function(f.Pos.File, f.Pos.Line, f.Pos.Col),
		Message:  positionInText.ReplaceAllString(f.Message, "$1"),
		Snippet:  src.Snippet(f.Pos.File, f.Pos.Line),
	}
}

// Fingerprints returns the fingerprint of each finding.
func Fingerprints(findings []finding.Finding, src *Sources) []string {
	out := make([]string, len(findings))
	for i, f := range findings {
		out[i] = KeyOf(f, src).Fingerprint()
	}
	return out
}

// New builds the baseline that accepts every finding. Files are recorded
// relative to dir.
func New(findings []finding.Finding, src *Sources, dir string) *File {
	byPrint := make(map[string]*Entry)
	for _, f := range findings {
		k := KeyOf(f, src)
		fp := k.Fingerprint()
		if e := byPrint[fp]; e != nil {
			e.Count++
			continue
		}
		file, _ := f.Pos.Rel(dir)
		byPrint[fp] = &Entry{
			Fingerprint: fp,
			Pass:        k.Pass,
			Package:     k.Package,
			Function:    k.Function,
			Message:     k.Message,
			Snippet:     k.Snippet,
			File:        file,
			Count:       1,
		}
	}
	b := &File{Version: Version, Tool: "sendlint", Findings: []Entry{}}
	for _, e := range byPrint {
		b.Findings = append(b.Findings, *e)
	}
	slices.SortFunc(b.Findings, func(x, y Entry) int {
		return cmp.Or(
			cmp.Compare(x.Package, y.Package),
			cmp.Compare(x.File, y.File),
			cmp.Compare(x.Function, y.Function),
			cmp.Compare(x.Pass, y.Pass),
			cmp.Compare(x.Message, y.Message),
			cmp.Compare(x.Fingerprint, y.Fingerprint),
		)
	})
	return b
}

// Total returns the number of accepted findings.
func (b *File) Total() int {
	n := 0
	for _, e := range b.Findings {
		n += e.Count
	}
	return n
}

// Marshal returns the file's JSON, ending in a newline.
func (b *File) Marshal() []byte {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		panic(err) // only strings and ints
	}
	return append(data, '\n')
}

// Write writes b to path.
func (b *File) Write(path string) error {
	return os.WriteFile(path, b.Marshal(), 0o644)
}

// Read reads a baseline file.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse parses a baseline file's contents; name is used in errors.
func Parse(data []byte, name string) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b File
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("%s: not a sendlint baseline: %v", name, err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("%s: baseline version %d, want %d (rewrite it with -write-baseline)", name, b.Version, Version)
	}
	for i, e := range b.Findings {
		if e.Fingerprint == "" || e.Count < 1 {
			return nil, fmt.Errorf("%s: entry %d needs a fingerprint and a count of at least 1", name, i+1)
		}
	}
	return &b, nil
}

// Result is what comparing findings against a baseline found.
type Result struct {
	New      []int   // indexes of the findings the baseline does not accept, in order
	Accepted int     // findings the baseline accepts
	Gone     []Entry // accepted findings no longer found; Count says how many
}

// GoneCount returns the number of accepted findings no longer found.
func (r Result) GoneCount() int {
	n := 0
	for _, e := range r.Gone {
		n += e.Count
	}
	return n
}

// Compare matches findings, given their fingerprints, against b. Each entry
// accepts up to Count findings with its fingerprint, earliest first.
func (b *File) Compare(fingerprints []string) Result {
	left := make(map[string]int)
	for _, e := range b.Findings {
		left[e.Fingerprint] += e.Count
	}
	var r Result
	for i, fp := range fingerprints {
		if left[fp] > 0 {
			left[fp]--
			r.Accepted++
			continue
		}
		r.New = append(r.New, i)
	}
	for _, e := range b.Findings {
		if n := left[e.Fingerprint]; n > 0 {
			e.Count = min(n, e.Count)
			left[e.Fingerprint] -= e.Count
			r.Gone = append(r.Gone, e)
		}
	}
	return r
}

// Summary is one line for people: how many findings were accepted, and how
// many accepted findings have gone so that the file can shrink.
func (r Result) Summary(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "baseline %s: %d accepted %s hidden", name, r.Accepted, plural(r.Accepted, "finding", "findings"))
	if n := r.GoneCount(); n > 0 {
		fmt.Fprintf(&b, "; %d accepted %s no longer found (rewrite the baseline with -write-baseline to drop %s)",
			n, plural(n, "finding is", "findings are"), plural(n, "it", "them"))
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
