package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// diagLine matches the text form every tool here prints for a diagnostic,
// "path:line:col: message" (staticcheck appends " (SA1234)"). A message that
// starts with a tab is related information printed by the x/tools checker
// under the diagnostic it belongs to, so it is not a finding of its own.
var diagLine = regexp.MustCompile(`^[^\s#].*?:\d+(?::\d+)?: [^\t]`)

// classify sorts one output line: a finding, a go vet package header, or
// anything else (type errors as "vet: ...", load errors, panics).
func classify(line string) (finding, other bool) {
	switch {
	case strings.TrimSpace(line) == "", strings.HasPrefix(line, "# "):
		return false, false
	case strings.HasPrefix(line, "vet: "):
		return false, true
	case strings.HasPrefix(line, "\t"), diagRelated(line):
		return false, false // continuation of the diagnostic above
	case diagLine.MatchString(line):
		return true, false
	}
	return false, true
}

func diagRelated(line string) bool {
	i := strings.Index(line, ": \t")
	return i > 0 && !strings.ContainsAny(line[:i], " \t")
}

// countFiles adds up findings and other lines over the given files.
func countFiles(paths ...string) (findings, other int, err error) {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return 0, 0, err
		}
		fi, o, err := countText(f)
		_ = f.Close() // read only: the count is already taken
		if err != nil {
			return 0, 0, err
		}
		findings, other = findings+fi, other+o
	}
	return findings, other, nil
}

func countText(r io.Reader) (findings, other int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		fi, o := classify(sc.Text())
		if fi {
			findings++
		}
		if o {
			other++
		}
	}
	return findings, other, sc.Err()
}

// passCounts reads the -json output of a go/analysis driver: one object
// {"<pkg>": {"<analyzer>": [diagnostics] or {"error": "..."}}} per package
// under go vet, a single such object from the standalone checker, so it
// decodes a stream of objects. It returns diagnostics per analyzer and the
// number of (package, analyzer) pairs that reported an error instead.
//
// A file of package p is analysed twice when p has tests, as p and as
// "p [p.test]", and both copies are in the JSON; the text output prints
// one. Counting each (position, message) once per analyzer keeps the two
// comparable.
func passCounts(r io.Reader) (counts map[string]int, errCount int, err error) {
	type diag struct{ Posn, Message string }
	seen := map[string]map[diag]bool{}
	dec := json.NewDecoder(r)
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, 0, fmt.Errorf("decoding -json output: %w", err)
		}
		for _, byPass := range tree {
			for pass, raw := range byPass {
				var diags []diag
				if json.Unmarshal(raw, &diags) != nil {
					errCount++ // {"error": "..."}
					continue
				}
				if seen[pass] == nil {
					seen[pass] = map[diag]bool{}
				}
				for _, d := range diags {
					seen[pass][d] = true
				}
			}
		}
	}
	counts = map[string]int{}
	for pass, set := range seen {
		counts[pass] = len(set)
	}
	return counts, errCount, nil
}
