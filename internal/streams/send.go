package streams

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/ssa"
)

// A Send is a call that writes on a stream, and how it reaches the stream
// method.
type Send struct {
	Call ssa.CallInstruction
	// Direct is true when the call names the method (stream.Send(m)) and
	// false when it goes through a func value that holds it.
	Direct bool
	// Via is the func value the call goes through, as written where it can
	// be recovered: "r.send", "send", "s". It is empty for a direct call and
	// for a method value called in the register it was made in.
	Via string
	// Origin is where the method value was taken or, for a direct call, the
	// call itself.
	Origin Origin
}

// An Origin is a place where a stream send became a value.
type Origin struct {
	// Method is the stream method, as its generic origin. It is nil when
	// the origin was imported from a dependency and names no object here.
	Method *types.Func
	// Name names the method for messages: "(*connect.BidiStream).Send",
	// "grpc.ServerStream.SendMsg".
	Name string
	// Expr is the method value as written, best effort: "stream.Send".
	Expr string
	// Pos is the selector of the method value, or the call for a direct
	// call. It is token.NoPos when the origin came from a dependency, whose
	// positions mean nothing in this package's file set.
	Pos token.Pos
}

// Describe renders s for a message, for example
//
//	stream.Send
//	r.send, which holds stream.Send taken at handler.go:107
//	send, which holds stream.Send taken in a dependency
func (s Send) Describe(fset *token.FileSet) string {
	if s.Direct {
		return s.Origin.Expr
	}
	where := "in a dependency"
	if s.Origin.Pos.IsValid() && fset != nil {
		p := fset.Position(s.Origin.Pos)
		where = fmt.Sprintf("at %s:%d", filepath.Base(p.Filename), p.Line)
	}
	if s.Via == "" || s.Via == s.Origin.Expr {
		return fmt.Sprintf("%s, a method value taken %s", s.Origin.Expr, where)
	}
	return fmt.Sprintf("%s, which holds %s taken %s", s.Via, s.Origin.Expr, where)
}

// newOrigin describes method taken by the method value v at pos. recv is
// the receiver the value was bound to, or nil for a method expression.
func newOrigin(method *types.Func, recv ssa.Value, pos token.Pos) Origin {
	o := Origin{Method: method, Name: methodName(method), Pos: pos}
	o.Expr = o.Name
	if r := describe(recv, 0); r != "" {
		o.Expr = r + "." + method.Name()
	}
	return o
}

// methodName renders a method with its package name and receiver:
// "(*connect.BidiStream).Send" or "grpc.ServerStream.SendMsg".
func methodName(fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		return fn.Name()
	}
	t := types.Unalias(recv.Type())
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = types.Unalias(p.Elem()), true
	}
	name := "?"
	if n, ok := t.(*types.Named); ok {
		name = n.Obj().Name()
		if pkg := n.Obj().Pkg(); pkg != nil {
			name = pkg.Name() + "." + name
		}
	}
	if ptr {
		return "(*" + name + ")." + fn.Name()
	}
	return name + "." + fn.Name()
}

// maxDescribeDepth keeps descriptions short: r.a.b.c is as far as it goes.
const maxDescribeDepth = 4

// describe renders v as the source expression it most likely came from, or
// "" when it has none (a temporary). It follows the shapes the builder
// emits for variables and fields:
//
//	r.send          t1 = *t0 where t0 = &r.send [#0]
//	send (captured) t1 = *send where send is a free variable
//	send (escaped)  t1 = *t0  where t0 = local func(*M) error (send)
//	s               a parameter, or a lifted φ of variable s
func describe(v ssa.Value, depth int) string {
	if depth > maxDescribeDepth {
		return ""
	}
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return v.Name()
	case *ssa.Alloc:
		return variableName(v.Comment)
	case *ssa.Phi:
		return variableName(v.Comment)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return describe(v.X, depth+1)
		}
	case *ssa.FieldAddr:
		return selector(describe(v.X, depth+1), fieldOf(v.X.Type(), v.Field))
	case *ssa.Field:
		return selector(describe(v.X, depth+1), fieldOf(v.X.Type(), v.Field))
	case *ssa.ChangeInterface:
		return describe(v.X, depth+1)
	case *ssa.ChangeType:
		return describe(v.X, depth+1)
	case *ssa.MakeInterface:
		return describe(v.X, depth+1)
	case *ssa.TypeAssert:
		return describe(v.X, depth+1)
	}
	return ""
}

func selector(x string, f *types.Var) string {
	if x == "" || f == nil {
		return ""
	}
	return x + "." + f.Name()
}

// variableName returns the comment of an Alloc or φ when it names a source
// variable. The builder also labels its own temporaries ("complit",
// "varargs", ...) and the φ of && and || with the operator.
func variableName(comment string) string {
	switch comment {
	case "complit", "slicelit", "varargs", "new", "makeslice", "rangeindex":
		return ""
	}
	if !token.IsIdentifier(comment) {
		return ""
	}
	return comment
}
