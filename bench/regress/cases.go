package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A regression case is one fix a project made to a send that could block
// forever: the version before the fix, where sendlint must report the send,
// and the version with the fix, where it must report nothing at the sends
// the fix changed.
type regressCase struct {
	Name    string
	Module  string // module path, as go get takes it
	Package string // import path of the package holding the send
	Pass    string // the pass expected to report the send
	Commit  string // URL of the fix, for the reader
	About   string // the bug in one line
	Tags    string // build tags, when the file needs them
	// Require lists module@version pairs got with the package: a newer
	// release of a dependency that an old version's requirements leave
	// ambiguous (genproto before its split, say).
	Require []string
	Bug     side // must report Pass at Bug.Lines
	Fix     side // must report nothing at Fix.Lines
	Line    int  // line of the case file where the case starts
}

// A side is one version of the module and the lines to look at in it.
type side struct {
	Version string
	Lines   []fileLine
}

// A fileLine is a position in a module, its file relative to the module root.
type fileLine struct {
	File string
	Line int
}

func (fl fileLine) String() string { return fl.File + ":" + strconv.Itoa(fl.Line) }

// parseCases reads the case file: blank lines and lines starting with #
// are ignored; "[name]" starts a case and "key = value" lines fill it.
//
//	[memberlist-fallback-ping]
//	module  = github.com/hashicorp/memberlist
//	package = github.com/hashicorp/memberlist
//	pass    = baresend
//	bug     = v0.1.0 state.go:294
//	fix     = v0.1.1 state.go:294
//	commit  = https://github.com/hashicorp/memberlist/commit/...
//	about   = ...
//
// bug and fix take a version followed by one or more file:line positions.
func parseCases(r io.Reader) ([]*regressCase, error) {
	var cases []*regressCase
	var cur *regressCase
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			name := strings.TrimSpace(line[1 : len(line)-1])
			if name == "" || strings.ContainsAny(name, " \t,") {
				return nil, fmt.Errorf("line %d: bad case name %q", n, name)
			}
			if seen[name] {
				return nil, fmt.Errorf("line %d: case %s given twice", n, name)
			}
			seen[name] = true
			cur = &regressCase{Name: name, Line: n}
			cases = append(cases, cur)
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("line %d: %q before the first [case]", n, line)
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: want key = value, have %q", n, line)
		}
		if err := cur.set(strings.TrimSpace(key), strings.TrimSpace(value)); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, c := range cases {
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("line %d: case %s: %v", c.Line, c.Name, err)
		}
	}
	return cases, nil
}

func (c *regressCase) set(key, value string) error {
	var err error
	switch key {
	case "module":
		c.Module = value
	case "package":
		c.Package = value
	case "pass":
		c.Pass = value
	case "commit":
		c.Commit = value
	case "about":
		c.About = value
	case "tags":
		c.Tags = value
	case "require":
		c.Require = strings.Fields(value)
	case "bug":
		c.Bug, err = parseSide(value)
	case "fix":
		c.Fix, err = parseSide(value)
	default:
		return fmt.Errorf("unknown key %q", key)
	}
	return err
}

// parseSide reads "version file:line [file:line...]".
func parseSide(s string) (side, error) {
	fields := strings.Fields(s)
	if len(fields) < 2 {
		return side{}, fmt.Errorf("want a version and file:line positions, have %q", s)
	}
	sd := side{Version: fields[0]}
	for _, f := range fields[1:] {
		i := strings.LastIndex(f, ":")
		if i <= 0 {
			return side{}, fmt.Errorf("position %q is not file:line", f)
		}
		n, err := strconv.Atoi(f[i+1:])
		if err != nil || n <= 0 {
			return side{}, fmt.Errorf("position %q has no line number", f)
		}
		sd.Lines = append(sd.Lines, fileLine{File: f[:i], Line: n})
	}
	return sd, nil
}

func (c *regressCase) check() error {
	switch {
	case c.Module == "":
		return fmt.Errorf("no module")
	case c.Package == "":
		return fmt.Errorf("no package")
	case c.Package != c.Module && !strings.HasPrefix(c.Package, c.Module+"/"):
		return fmt.Errorf("package %s is not in module %s", c.Package, c.Module)
	case c.Pass == "":
		return fmt.Errorf("no pass")
	case c.Bug.Version == "":
		return fmt.Errorf("no bug version")
	case c.Fix.Version == "":
		return fmt.Errorf("no fix version")
	case c.Commit == "":
		return fmt.Errorf("no commit")
	case c.About == "":
		return fmt.Errorf("no about")
	}
	return nil
}

// selectCases keeps the cases whose names are in the comma-separated list;
// an empty list keeps them all.
func selectCases(cases []*regressCase, list string) ([]*regressCase, error) {
	if list == "" {
		return cases, nil
	}
	byName := map[string]*regressCase{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	var out []*regressCase
	for _, name := range strings.Split(list, ",") {
		c, ok := byName[strings.TrimSpace(name)]
		if !ok {
			return nil, fmt.Errorf("no case named %q", name)
		}
		out = append(out, c)
	}
	return out, nil
}
