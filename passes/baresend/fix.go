package baresend

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/sendlint/sendlint/internal/chans"
)

// withLivenessFix adds to d, the finding of a bare send, the fix that
// selects on a liveness channel in scope, when there is one.
func (c *checker) withLivenessFix(d analysis.Diagnostic) analysis.Diagnostic {
	d.SuggestedFixes = c.livenessFix(d.Pos)
	return d
}

// livenessFix offers to turn the bare send at arrow into a select that also
// gives up when a liveness channel in scope fires:
//
//	select {
//	case ch <- v:
//	case <-ctx.Done():
//	}
//
// The liveness channel is, in order of preference, ctx.Done() of a
// context.Context parameter or variable visible at the send (a closure's
// captured ctx included), or a stop, done or quit channel of element size
// zero: a variable in scope or a field of the method's receiver.
//
// The liveness case gives up the send and goes on after the select. That
// is not a silent drop: the value is abandoned only when the work it
// belongs to was cancelled or the component is stopping, so nobody is left
// to read it, and the cancellation is itself the visible event, with its
// cause. When the function returns an error last and the send is followed
// only by a return, the ctx case returns ctx.Err() instead, so the caller
// learns why. It never returns anywhere else: an early return could skip an
// Unlock or a Done that follows the send.
//
// No fix is offered when no liveness channel is in scope: the pass never
// suggests a default, which would trade the wedge for a silent drop.
func (c *checker) livenessFix(arrow token.Pos) []analysis.SuggestedFix {
	path, file := c.enclosing(arrow)
	if len(path) == 0 {
		return nil
	}
	send, ok := path[0].(*ast.SendStmt)
	if !ok || send.Arrow != arrow || isComm(send, path) {
		return nil
	}
	live, desc := c.liveness(send, path)
	if live == "" {
		return nil
	}
	body := ""
	if res := c.errReturn(send, path, live); res != "" {
		body, desc = "return "+res, "return "+res+" when "+desc
	} else {
		desc = "give up the send when " + desc
	}
	src := c.source(file)
	indent := lineIndent(src, c.pass.Fset.Position(send.Pos()).Offset)
	var b bytes.Buffer
	fmt.Fprintf(&b, "select {\n%scase %s <- %s:\n%scase <-%s:\n", indent, c.text(src, send.Chan), c.text(src, send.Value), indent, live)
	if body != "" {
		fmt.Fprintf(&b, "%s\t%s\n", indent, body)
	}
	fmt.Fprintf(&b, "%s}", indent)
	return []analysis.SuggestedFix{{
		Message:   "select on the send and " + desc,
		TextEdits: []analysis.TextEdit{{Pos: send.Pos(), End: send.End(), NewText: b.Bytes()}},
	}}
}

// enclosing returns the path from the node at pos up to its file.
func (c *checker) enclosing(pos token.Pos) ([]ast.Node, *ast.File) {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, pos, pos+2)
			return path, f
		}
	}
	return nil, nil
}

// isComm reports whether the send is the communication of a select case:
// select { case ch <- v: } is lowered to a plain send, but rewriting it is
// a different edit.
func isComm(send *ast.SendStmt, path []ast.Node) bool {
	if len(path) < 2 {
		return false
	}
	cc, ok := path[1].(*ast.CommClause)
	return ok && cc.Comm == send
}

// stopName matches the names of channels whose closing means "stop": stop,
// stopCh, done, donec, quit, closing, shutdownCh...
var stopName = regexp.MustCompile(`^(?i:stop|stopping|done|quit|closing|closed|shutdown|die|dying|exit|cancel)(c|ch|chan|channel|C|Ch|Chan|Channel)?$`)

// liveness returns the expression of the liveness case's channel and a
// description of it, or "" when none is in scope.
func (c *checker) liveness(send *ast.SendStmt, path []ast.Node) (expr, desc string) {
	scope := c.pass.Pkg.Scope().Innermost(send.Pos())
	if scope == nil {
		return "", ""
	}
	// The channel sent on is never its own liveness case: stopCh <- x is
	// a stop request, not a send that stopCh can unblock. A stop channel
	// of the same name (m.stopCh copied into stopCh) is taken to be it.
	target := lastName(send.Chan)
	var stops []string
	for s := scope; s != nil && s != c.pass.Pkg.Scope() && s != types.Universe; s = s.Parent() {
		for _, name := range s.Names() {
			v, ok := s.Lookup(name).(*types.Var)
			if !ok || v.Pos() >= send.Pos() || v.Name() == "_" {
				continue
			}
			if _, found := scope.LookupParent(name, send.Pos()); found != v {
				continue // shadowed by a later declaration
			}
			if isContext(v.Type()) {
				return name + ".Done()", name + " is done"
			}
			if stopName.MatchString(name) && c.isStopChan(v.Type()) && name != target {
				stops = append(stops, name)
			}
		}
	}
	if len(stops) > 0 {
		return stops[0], stops[0] + " is closed"
	}
	if recv, field := c.receiverStop(path); field != "" && field != target {
		return recv + "." + field, recv + "." + field + " is closed"
	}
	return "", ""
}

// lastName returns the name an expression ends in: stopCh for stopCh and
// for m.stopCh.
func lastName(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// isStopChan reports whether t is a channel one can receive from whose
// element carries nothing: a signal channel.
func (c *checker) isStopChan(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	if !ok || ch.Dir() == types.SendOnly {
		return false
	}
	if _, isParam := ch.Elem().(*types.TypeParam); isParam {
		return false
	}
	return c.pass.TypesSizes.Sizeof(ch.Elem()) == 0
}

// receiverStop returns the receiver of the enclosing method and its stop
// channel field, when it has one.
func (c *checker) receiverStop(path []ast.Node) (recv, field string) {
	for _, n := range path {
		fd, ok := n.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
			continue
		}
		name := fd.Recv.List[0].Names[0]
		obj := c.pass.TypesInfo.Defs[name]
		if obj == nil || name.Name == "_" {
			return "", ""
		}
		t := obj.Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return "", ""
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if stopName.MatchString(f.Name()) && c.isStopChan(f.Type()) && c.assigned(f) {
				return name.Name, f.Name()
			}
		}
		return "", ""
	}
	return "", ""
}

// errReturn returns the results of "return ..., ctx.Err()" when live is a
// context's Done, the function's last result is an error, every other
// result has a zero value the fix can spell, and the send is followed only
// by a return; "" otherwise.
func (c *checker) errReturn(send *ast.SendStmt, path []ast.Node, live string) string {
	ctx, ok := strings.CutSuffix(live, ".Done()")
	if !ok || !followedByReturn(send, path) {
		return ""
	}
	sig := c.enclosingSig(path)
	if sig == nil || sig.Results().Len() == 0 {
		return ""
	}
	res := sig.Results()
	if !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return ""
	}
	var parts []string
	for i := range res.Len() - 1 {
		z := c.zero(res.At(i).Type())
		if z == "" {
			return ""
		}
		parts = append(parts, z)
	}
	return strings.Join(append(parts, ctx+".Err()"), ", ")
}

// followedByReturn reports whether the statement after the send in its
// block is a return.
func followedByReturn(send *ast.SendStmt, path []ast.Node) bool {
	if len(path) < 2 {
		return false
	}
	var list []ast.Stmt
	switch b := path[1].(type) {
	case *ast.BlockStmt:
		list = b.List
	case *ast.CaseClause:
		list = b.Body
	case *ast.CommClause:
		list = b.Body
	default:
		return false
	}
	for i, s := range list {
		if s == send {
			if i+1 < len(list) {
				_, ok := list[i+1].(*ast.ReturnStmt)
				return ok
			}
			return false
		}
	}
	return false
}

// enclosingSig returns the signature of the innermost function around the
// path.
func (c *checker) enclosingSig(path []ast.Node) *types.Signature {
	for _, n := range path {
		switch f := n.(type) {
		case *ast.FuncLit:
			sig, _ := c.pass.TypesInfo.TypeOf(f).(*types.Signature)
			return sig
		case *ast.FuncDecl:
			if obj := c.pass.TypesInfo.Defs[f.Name]; obj != nil {
				sig, _ := obj.Type().(*types.Signature)
				return sig
			}
			return nil
		}
	}
	return nil
}

// zero spells the zero value of t, or returns "" when it would need an
// import or a type the fix cannot name.
func (c *checker) zero(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsNumeric != 0:
			return "0"
		case u.Kind() == types.UnsafePointer:
			return "nil"
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil"
	case *types.Struct, *types.Array:
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == c.pass.Pkg && n.TypeArgs() == nil {
			return n.Obj().Name() + "{}"
		}
	}
	return ""
}

// source returns the text of file.
func (c *checker) source(f *ast.File) []byte {
	name := c.pass.Fset.File(f.FileStart).Name()
	src, err := c.pass.ReadFile(name)
	if err != nil {
		return nil
	}
	return src
}

// text returns the source text of n, or its printed form when the source
// is not readable.
func (c *checker) text(src []byte, n ast.Expr) string {
	start, end := c.pass.Fset.Position(n.Pos()).Offset, c.pass.Fset.Position(n.End()).Offset
	if src != nil && 0 <= start && start <= end && end <= len(src) {
		return string(src[start:end])
	}
	return types.ExprString(n)
}

// lineIndent returns the leading blanks of the line holding offset.
func lineIndent(src []byte, offset int) string {
	if src == nil || offset > len(src) {
		return ""
	}
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	end := start
	for end < offset && (src[end] == '\t' || src[end] == ' ') {
		end++
	}
	return string(src[start:end])
}

// assigned reports whether field f can hold a channel: code outside the
// package may set an exported field, and this package stores into an
// unexported one. A stop field nothing sets is nil, and a case on it never
// fires: offering it as the fix would leave the send as stuck as before.
func (c *checker) assigned(f *types.Var) bool {
	return f.Exported() || len(c.idx.Stored(chans.Origin{Kind: chans.Field, Field: f})) > 0
}
