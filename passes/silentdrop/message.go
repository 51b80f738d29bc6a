package silentdrop

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/report"
)

// report reports the select's first data-carrying send case, naming every
// such channel and what is lost; in the audit tier, labelled with what is
// missing, when missing is not "".
//
//	send on s.events (chan Event, cap 64) drops the Event without a trace
//	when the channel is full: the default neither returns a status, logs,
//	counts nor hands the value on
func (c *checker) report(sel *ssa.Select, sends []int, missing string) {
	if !c.rep.Tests() && c.idx.TestOnly(sel.Parent()) {
		return // only the package's tests call it: test code
	}
	if missing != "" && !c.rep.Auditing() {
		c.rep.Audit(analysis.Diagnostic{Pos: sel.States[sends[0]].Pos}, missing) // keeps a directive written for it in use
		return
	}
	stmt := c.selects[sel.Pos()]
	var descs []string
	var related []analysis.RelatedInformation
	var makes []*ssa.MakeChan
	for _, i := range sends {
		st := sel.States[i]
		ms := c.makes(st.Chan)
		makes = append(makes, ms...)
		descs = append(descs, fmt.Sprintf("%s (%s)", c.chanName(stmt, st), c.chanType(st.Chan, ms)))
	}
	first := sel.States[sends[0]]
	lost := types.TypeString(elem(first.Chan), c.qualifier)
	msg := fmt.Sprintf("send on %s drops the %s without a trace %s: the default neither returns a status, logs, counts nor hands the value on",
		joinNames(descs), lost, when(makes))
	d := analysis.Diagnostic{Pos: first.Pos, Message: msg, Related: dropRelated(related, stmt, makes)}
	if missing != "" {
		c.rep.Audit(d, missing)
		return
	}
	c.rep.Report(d)
}

// dropRelated appends to related what every drop report shows: where the
// default drops the value, and where the channel was made.
func dropRelated(related []analysis.RelatedInformation, stmt *ast.SelectStmt, makes []*ssa.MakeChan) []analysis.RelatedInformation {
	if def := defaultClause(stmt); def != nil {
		related = append(related, analysis.RelatedInformation{Pos: def.Case, End: def.Colon + 1, Message: "the value is dropped here"})
	}
	for _, mk := range makes {
		related = append(related, analysis.RelatedInformation{Pos: mk.Pos(), Message: report.MadeHere + capSuffix(mk)})
	}
	return related
}

// reportUnlessIntended reports d by default, or in the audit tier when a
// comment in the select's default says the drop is intended.
func (c *checker) reportUnlessIntended(sel *ssa.Select, d analysis.Diagnostic) {
	if c.intended(sel) {
		c.rep.Audit(d, missIntended)
		return
	}
	c.rep.Report(d)
}

// qualifier names types of other packages by package name, as the source
// spells them: *raftpb.Message, not *go.etcd.io/raft/v3/raftpb.Message.
func (c *checker) qualifier(p *types.Package) string {
	if p == c.pass.Pkg {
		return ""
	}
	return p.Name()
}

// when says when the send gives up: the buffer is full, or no receiver is
// ready on an unbuffered channel.
func when(makes []*ssa.MakeChan) string {
	if len(makes) == 0 {
		return "when the send cannot proceed"
	}
	for _, mk := range makes {
		if chans.CapString(mk) != "unbuffered" {
			return "when the channel is full"
		}
	}
	return "when no receiver is ready"
}

// makes returns where the channel was made, when the package shows it.
func (c *checker) makes(ch ssa.Value) []*ssa.MakeChan {
	var out []*ssa.MakeChan
	for _, o := range c.idx.Origins(ch) {
		switch o.Kind {
		case chans.Made:
			out = append(out, o.Make)
		case chans.Field:
			out = append(out, c.idx.FieldMakes(o.Field)...)
		case chans.Global:
			out = append(out, c.idx.GlobalMakes(o.Global)...)
		}
	}
	return out
}

func (c *checker) chanName(stmt *ast.SelectStmt, st *ssa.SelectState) string {
	if stmt != nil {
		for _, cl := range stmt.Body.List {
			if s, ok := cl.(*ast.CommClause).Comm.(*ast.SendStmt); ok && s.Arrow == st.Pos {
				return types.ExprString(s.Chan)
			}
		}
	}
	return st.Chan.Name()
}

// chanType describes a channel's type and its capacity, as baresend
// does: "chan Event, cap 64", "chan Event, cap 1 or 64", "chan Event, cap
// len(subs)". A channel other packages may make too (chans.MadeElsewhere)
// has no capacity here to print.
func (c *checker) chanType(ch ssa.Value, makes []*ssa.MakeChan) string {
	desc := types.TypeString(ch.Type(), c.qualifier)
	for _, o := range c.idx.Origins(ch) {
		if c.idx.MadeElsewhere(o) {
			return desc
		}
	}
	if capacity := c.idx.SizesOf(makes); capacity != "" {
		desc += ", " + capacity
	}
	return desc
}

func elem(ch ssa.Value) types.Type {
	if t, ok := ch.Type().Underlying().(*types.Chan); ok {
		return t.Elem()
	}
	return ch.Type()
}

func defaultClause(stmt *ast.SelectStmt) *ast.CommClause {
	if stmt == nil {
		return nil
	}
	for _, cl := range stmt.Body.List {
		if cc := cl.(*ast.CommClause); cc.Comm == nil {
			return cc
		}
	}
	return nil
}

func capSuffix(mk *ssa.MakeChan) string {
	if s := chans.CapString(mk); s != "" {
		return " (" + s + ")"
	}
	return ""
}

// joinNames joins names as prose: "a", "a or b", "a, b or c".
func joinNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
