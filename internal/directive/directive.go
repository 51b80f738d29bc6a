// Package directive reads sendlint's comment directives once per package:
//
//	//sendlint:ignore <pass>[,<pass>] <reason>   suppress a finding on this line or the next
//	//sendlint:sender                          mark a function as the designated stream sender
//
// Directives follow the Go directive form (no space after //) and are parsed
// with go/ast.ParseDirective. A malformed directive is recorded as an error
// rather than skipped, so that a typo never silently stops suppressing or
// starts suppressing something else.
package directive

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Passes lists the names a directive may refer to. The driver's tests check
// that it matches the analyzers the binary registers.
var Passes = []string{"baresend", "lockedsend", "singlesender", "silentdrop"}

// Analyzer parses the directives of a package. It reports nothing; the passes
// consult its result through internal/report.
var Analyzer = &analysis.Analyzer{
	Name:       "sendlintdirective",
	Doc:        "parse //sendlint: directives",
	ResultType: reflect.TypeFor[*Index](),
	Run:        run,
}

// Ignore is one //sendlint:ignore directive.
type Ignore struct {
	Pos    token.Pos
	File   string
	Line   int
	Passes []string
	Reason string
}

// Names reports whether the directive names pass.
func (ig *Ignore) Names(pass string) bool { return slices.Contains(ig.Passes, pass) }

// Error is a malformed directive.
type Error struct {
	Pos token.Position
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Pos, e.Msg) }

// Index holds the directives of one package, in source order.
type Index struct {
	Ignores []*Ignore
	Senders []token.Pos // positions of //sendlint:sender directives
	Errors  []*Error
}

func run(pass *analysis.Pass) (any, error) {
	idx := new(Index)
	for _, f := range pass.Files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				idx.add(pass.Fset, c)
			}
		}
	}
	return idx, nil
}

func (idx *Index) add(fset *token.FileSet, c *ast.Comment) {
	d, ok := ast.ParseDirective(c.Slash, c.Text)
	if !ok || d.Tool != "sendlint" {
		return
	}
	pos := fset.Position(c.Slash)
	fail := func(format string, args ...any) {
		idx.Errors = append(idx.Errors, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
	}
	switch d.Name {
	case "ignore":
		ig, msg := parseIgnore(d.Args)
		if msg != "" {
			fail("malformed //sendlint:ignore directive: %s", msg)
			return
		}
		ig.Pos, ig.File, ig.Line = c.Slash, pos.Filename, pos.Line
		idx.Ignores = append(idx.Ignores, ig)
	case "sender":
		if d.Args != "" {
			fail("malformed //sendlint:sender directive: it takes no arguments")
			return
		}
		idx.Senders = append(idx.Senders, c.Slash)
	default:
		fail("unknown directive //sendlint:%s (want ignore or sender)", d.Name)
	}
}

// parseIgnore parses "<pass>[,<pass>] <reason>". It returns a non-empty
// message when the arguments are malformed.
func parseIgnore(args string) (*Ignore, string) {
	list, reason, _ := strings.Cut(args, " ")
	reason = strings.TrimSpace(reason)
	if list == "" {
		return nil, "missing pass name and reason (want //sendlint:ignore <pass>[,<pass>] <reason>)"
	}
	ig := &Ignore{Reason: reason}
	for name := range strings.SplitSeq(list, ",") {
		if !slices.Contains(Passes, name) {
			return nil, fmt.Sprintf("unknown pass %q (want one of %s)", name, strings.Join(Passes, ", "))
		}
		ig.Passes = append(ig.Passes, name)
	}
	if reason == "" {
		return nil, "missing reason (want //sendlint:ignore " + list + " <reason>)"
	}
	return ig, ""
}
