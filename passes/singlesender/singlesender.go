package singlesender

import (
	_ "embed"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/analyzerdoc"
	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/ownership"
	"github.com/sendlint/sendlint/internal/report"
)

//go:embed doc.go
var doc string

// Analyzer reports stream sends made by more than one goroutine.
var Analyzer = &analysis.Analyzer{
	Name:     "singlesender",
	Doc:      analyzerdoc.MustExtract(doc, "singlesender"),
	URL:      "https://pkg.go.dev/github.com/sendlint/sendlint/passes/singlesender",
	Requires: append([]*analysis.Analyzer{ownership.Analyzer}, report.Requires...),
	Run:      run,
}

func init() { report.Flags(&Analyzer.Flags) }

// checker holds what one run needs.
type checker struct {
	pass     *analysis.Pass
	rep      *report.Reporter
	res      *ownership.Result
	files    []*ast.File
	reported map[token.Pos]bool
	calls    map[token.Pos]ast.Expr   // the function expression of each call, by Lparen
	args     map[token.Pos][]ast.Expr // the arguments of each call, by Lparen
}

func run(pass *analysis.Pass) (any, error) {
	rep, err := report.New(pass)
	if err != nil {
		return nil, err
	}
	res := pass.ResultOf[ownership.Analyzer].(*ownership.Result)
	if res.Err != nil && len(pass.Files) > 0 {
		pass.Report(analysis.Diagnostic{
			Pos:     pass.Files[0].Package,
			Message: "internal error: singlesender could not analyse this package: " + firstLine(res.Err.Error()) + "; please report it",
		})
	}
	for _, pos := range res.Unmatched {
		rep.Report(analysis.Diagnostic{
			Pos:     pos,
			Message: "//sendlint:sender marks no function: put it in the doc comment of a func, or on the line above a func literal",
		})
	}
	c := &checker{pass: pass, rep: rep, res: res, files: pass.Files, reported: make(map[token.Pos]bool)}
	for _, s := range res.Streams {
		rep.Guard(s.Owner.String(), s.Pos(), func() { c.checkStream(s) })
	}
	rep.Finish()
	return nil, nil
}

// checkStream reports every send on s made by a goroutine other than its
// designated sender, and every send made by a goroutine of which there may
// be many at once.
func (c *checker) checkStream(s *ownership.Stream) {
	d := designated(s)
	var rival *ownership.Goroutine
	for _, site := range s.Sites {
		var bad []ownership.Sender
		for _, snd := range site.Senders {
			if conflicts(snd.G, d) {
				bad = append(bad, snd)
				if rival == nil && startedBeside(snd.G, d) {
					rival = &snd.G
				}
			}
		}
		if len(bad) > 0 {
			c.report(s, site, bad, d)
		}
	}
	if rival != nil {
		c.reportDesignated(s, *d, *rival)
	}
}

// startedBeside reports whether g and the designated sender d are two
// goroutines started by one function, neither of them marked: nothing
// makes d the sender but the order of the go statements, so both sends
// are reported.
func startedBeside(g ownership.Goroutine, d *ownership.Goroutine) bool {
	return d != nil && d.Kind == ownership.Started && g.Kind == ownership.Started && !g.Multi &&
		g.Order != nil && d.Order != nil && g.Order.Parent() == d.Order.Parent() && !g.Same(*d)
}

// reportDesignated reports the sends of d, the first of two goroutines
// started beside each other, naming the other.
func (c *checker) reportDesignated(s *ownership.Stream, d, other ownership.Goroutine) {
	for _, site := range s.Sites {
		for _, snd := range site.Senders {
			if snd.G.Same(d) {
				c.reportBeside(s, site, snd, other)
				break
			}
		}
	}
}

// designated picks the stream's sender: a function marked
// //sendlint:sender; else the first goroutine started with the stream;
// else the owner, when it sends itself; else the first goroutine of which
// there is only one. It returns nil when every sender may run many times
// at once.
func designated(s *ownership.Stream) *ownership.Goroutine {
	var best *ownership.Goroutine
	rank := func(g ownership.Goroutine) int {
		switch {
		case g.Multi:
			return 0
		case g.Kind == ownership.Marked:
			return 4
		case g.Kind == ownership.Started:
			return 3
		case g.Kind == ownership.Owner:
			return 2
		}
		return 1
	}
	for _, site := range s.Sites {
		for _, snd := range site.Senders {
			g := snd.G
			r := rank(g)
			if r == 0 {
				continue
			}
			if best == nil || r > rank(*best) || r == rank(*best) && startPos(g) < startPos(*best) {
				best = &g
			}
		}
	}
	return best
}

// startPos orders goroutines of one rank by where they start.
func startPos(g ownership.Goroutine) token.Pos {
	if g.Site != nil {
		return g.Site.Pos()
	}
	if g.Fn != nil {
		return g.Fn.Pos()
	}
	return token.NoPos
}

// conflicts reports whether a send by g breaks the ownership of a stream
// whose sender is d. A goroutine that may run many times at once always
// does. The owner's send made before the sender goroutine starts, or in a
// branch that never starts it, does not; nor do two started goroutines
// that exclude each other.
func conflicts(g ownership.Goroutine, d *ownership.Goroutine) bool {
	if g.Multi || d == nil {
		return true
	}
	if g.Same(*d) {
		return false
	}
	if g.Order == nil || d.Order == nil || g.Order.Parent() != d.Order.Parent() || d.Kind == ownership.Owner {
		return true
	}
	if _, deferred := g.Order.(*ssa.Defer); deferred {
		return true // runs when the owner returns, while the sender may still run
	}
	switch g.Kind {
	case ownership.Owner:
		return flow.Reaches(d.Order, g.Order)
	case ownership.Started, ownership.Marked:
		// Two goroutines started within one call of the owner's cannot be
		// ordered from here; both are taken to run.
		return g.Order == d.Order || flow.Reaches(d.Order, g.Order) || flow.Reaches(g.Order, d.Order)
	}
	return true
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
