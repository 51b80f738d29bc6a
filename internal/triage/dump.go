// Package triage joins sendlint's findings to the evidence of a wedged
// process: its goroutine dumps. It parses the dumps (the goroutine profile
// at debug=1 and debug=2, a SIGQUIT or crash traceback, and the goroutine
// leak profile), groups the blocked goroutines by what they wait on and by
// the line of the module they wait at, maps the dump's paths onto the
// module on disk, and says which findings the dump confirms and which
// blocked sends no finding explains.
//
// The analysis itself is not run here: Analyze names the packages to
// analyse, and the caller hands the findings to Join.
package triage

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
)

// Frame is one call of a goroutine's stack, as the dump prints it.
type Frame struct {
	Func string // the function, with its import path: example.com/m/pkg.(*T).M
	Pkg  string // the function's import path; "main" for package main
	File string // the file as the dump names it
	Line int
}

// Goroutine is one goroutine, or, in a debug=1 profile, one stack and how
// many goroutines share it.
type Goroutine struct {
	ID      int // 0 when the dump has no ids (debug=1)
	Count   int
	State   string // as printed, without the (leaked) mark; "" when the dump has none
	Leaked  bool   // the goroutine leak profile marked it
	Minutes int    // how long it has waited, as printed; 0 under a minute
	Frames  []Frame
}

// Formats of dumps.
const (
	FormatDebug2    = "debug=2"
	FormatTraceback = "traceback"
	FormatDebug1    = "debug=1"
	FormatLeak1     = "goroutineleak debug=1"
	FormatLeak2     = "goroutineleak debug=2"
)

// Dump is one goroutine dump.
type Dump struct {
	Name       string
	Format     string
	Goroutines []Goroutine
}

// Total is the number of goroutines in the dump.
func (d *Dump) Total() int {
	n := 0
	for _, g := range d.Goroutines {
		n += g.Count
	}
	return n
}

// ReadFile reads and parses the dump in file.
func ReadFile(file string) (*Dump, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, data)
}

// Parse parses a goroutine dump: the debug=1 forms ("goroutine profile:
// total N", "goroutineleak profile: total N") by parseDebug1, the others,
// where each goroutine is printed with its state, by parseStacks. An error
// names the file.
func Parse(name string, data []byte) (*Dump, error) {
	if kind, ok := countProfile(data); ok {
		d, err := parseDebug1(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		d.Name = name
		if kind == "goroutineleak" {
			d.Format = FormatLeak1
		}
		return d, nil
	}
	gs, err := parseStacks(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not a goroutine dump: %v", name, err)
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("%s: not a goroutine dump: no goroutine found (want the text of /debug/pprof/goroutine?debug=2 or debug=1, or a SIGQUIT or crash traceback)", name)
	}
	d := &Dump{Name: name, Format: FormatDebug2, Goroutines: gs}
	if isTraceback(data) {
		d.Format = FormatTraceback
	}
	for _, g := range gs {
		if g.Leaked {
			// The leak profile at debug=2 is the goroutine dump with the
			// leaked goroutines marked.
			d.Format = FormatLeak2
		}
	}
	return d, nil
}

// countProfile reports whether data is a count profile at debug=1, and
// which profile it is.
func countProfile(data []byte) (string, bool) {
	line, _, _ := bytes.Cut(bytes.TrimLeft(data, "\n"), []byte("\n"))
	name, rest, ok := strings.Cut(string(line), " profile: total ")
	return name, ok && (name == "goroutine" || name == "goroutineleak") && rest != ""
}

// isTraceback reports whether data is what the runtime prints when the
// process dies (a panic, a fatal error, SIGQUIT), rather than a profile.
func isTraceback(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "goroutine ") {
			return strings.Contains(line, " gp=") // the runtime's crash form names the g
		}
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") || strings.HasPrefix(line, "SIGQUIT: ") {
			return true
		}
	}
	return false
}

// cleanState drops the marks the runtime adds to a wait reason:
// "chan send (leaked)", "select (scan)", "chan receive (durable)".
func cleanState(s string) (state string, leaked bool) {
	for _, mark := range []string{" (scan)", " (durable)", " (leaked)"} {
		if before, ok := strings.CutSuffix(s, mark); ok {
			s = before
			leaked = leaked || mark == " (leaked)"
		}
	}
	return s, leaked
}
