package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A diag is one finding as sendlint -json prints it, its file relative to
// the module root when it lies inside the module. Also holds the other
// paths to the same blocking operation that lockedsend folds into one
// finding ("also reached here"): the finding reports those lines too.
type diag struct {
	Pass    string
	At      fileLine
	Col     int
	Message string
	Also    []fileLine
}

// alsoReached starts the message of a related position that is another
// path to the finding's blocking operation.
const alsoReached = "also reached here"

// parseFindings reads go vet's JSON stream, which sendlint -json prints:
// one object per package, {"pkg": {"pass": [diagnostics] | {"error": "..."}}}.
// Positions are file:line:col with absolute file names; those under modDir
// are made relative to it. It returns the findings and the errors the
// stream reports.
func parseFindings(r io.Reader, modDir string) ([]diag, []string, error) {
	var diags []diag
	var errs []string
	dec := json.NewDecoder(r)
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			return nil, nil, fmt.Errorf("reading sendlint's JSON: %v", err)
		}
		for pkg, passes := range tree {
			for pass, raw := range passes {
				if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
					var e struct{ Error string }
					if err := json.Unmarshal(raw, &e); err != nil {
						return nil, nil, fmt.Errorf("reading sendlint's JSON: %v", err)
					}
					errs = append(errs, fmt.Sprintf("%s: %s: %s", pkg, pass, e.Error))
					continue
				}
				var ds []struct {
					Posn    string `json:"posn"`
					Message string `json:"message"`
					Related []struct {
						Posn    string `json:"posn"`
						Message string `json:"message"`
					} `json:"related"`
				}
				if err := json.Unmarshal(raw, &ds); err != nil {
					return nil, nil, fmt.Errorf("reading sendlint's JSON: %v", err)
				}
				for _, d := range ds {
					at, col, err := parsePosn(d.Posn, modDir)
					if err != nil {
						return nil, nil, err
					}
					dg := diag{Pass: pass, At: at, Col: col, Message: d.Message}
					for _, rel := range d.Related {
						if !strings.HasPrefix(rel.Message, alsoReached) {
							continue
						}
						also, _, err := parsePosn(rel.Posn, modDir)
						if err != nil {
							return nil, nil, err
						}
						dg.Also = append(dg.Also, also)
					}
					diags = append(diags, dg)
				}
			}
		}
	}
	return diags, errs, nil
}

// parsePosn splits file:line:col (or file:line) and makes the file
// relative to modDir, with forward slashes.
func parsePosn(posn, modDir string) (fileLine, int, error) {
	file, line, col := posn, 0, 0
	nums := []*int{&col, &line}
	if strings.Count(posn, ":") == 1 || !isNumber(posn[strings.LastIndex(posn, ":")+1:]) {
		nums = nums[1:]
	}
	for _, n := range nums {
		i := strings.LastIndex(file, ":")
		if i < 0 {
			return fileLine{}, 0, fmt.Errorf("position %q is not file:line:col", posn)
		}
		v, err := strconv.Atoi(file[i+1:])
		if err != nil {
			return fileLine{}, 0, fmt.Errorf("position %q is not file:line:col", posn)
		}
		*n, file = v, file[:i]
	}
	if modDir != "" {
		if rel, err := filepath.Rel(modDir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	return fileLine{File: filepath.ToSlash(file), Line: line}, col, nil
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// at returns the findings on any of the lines, of the pass when pass is
// not empty. A finding is on a line it is reported at, or on one of its
// other paths to the same operation (see diag.Also).
func at(diags []diag, lines []fileLine, pass string) []diag {
	var out []diag
	for _, d := range diags {
		if pass != "" && d.Pass != pass {
			continue
		}
		for _, fl := range lines {
			if d.At == fl || slices.Contains(d.Also, fl) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// inFiles returns the findings in the files of the lines: what the pass
// said nearby when it missed the line.
func inFiles(diags []diag, lines []fileLine) []diag {
	files := map[string]bool{}
	for _, fl := range lines {
		files[fl.File] = true
	}
	var out []diag
	for _, d := range diags {
		if files[d.At.File] {
			out = append(out, d)
		}
	}
	return out
}
