package locks

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// maxKeyDepth bounds the path of a key: s.a.b.c.d is as deep as it goes.
// Deeper values get an opaque key of their own.
const maxKeyDepth = 8

// Key returns the canonical path of the mutex v points to, so that two
// spellings of one mutex compare equal within a function:
//
//	s.mu.Lock()                 t1 = &s.mu [#1]; Lock(t1)             "s.mu"
//	mu := &s.mu; mu.Unlock()    the same t1                           "s.mu"
//	s.pmu.Lock() (*sync.Mutex)  t1 = &s.pmu [#2]; t2 = *t1; Lock(t2)  "s.pmu"
//	s.Lock() (embedded Mutex)   t1 = &s.Mutex [#0]; Lock(t1)          "s"
//	var l sync.Locker = s       t1 = make sync.Locker <- *S (s)       "s"
//	s.lockFor(k).Lock()         t1 = (*S).lockFor(s, k)               "(*S).lockFor(s, k)"
//
// An embedded field is transparent, so a struct that embeds its mutex has
// one key whether it is locked through the promoted method or as a
// sync.Locker. A call result is keyed by callee and arguments: a lock
// getter called twice with the same arguments is taken to return the same
// mutex. Values the path cannot name (a φ of different mutexes) get a key
// that is the SSA value itself.
func Key(v ssa.Value) string { return key(v, 0) }

func key(v ssa.Value, depth int) string {
	if depth > maxKeyDepth {
		return opaque(v)
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Name()
	case *ssa.FreeVar:
		return v.Name()
	case *ssa.Global:
		return v.Pkg.Pkg.Path() + "." + v.Name()
	case *ssa.Const:
		if v.Value == nil {
			return "nil"
		}
		return v.Value.ExactString()
	case *ssa.FieldAddr:
		return fieldKey(v.X, v.X.Type(), v.Field, depth)
	case *ssa.Field:
		return fieldKey(v.X, v.X.Type(), v.Field, depth)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			// A load of a pointer is the pointee of the variable or
			// field it was loaded from.
			return key(v.X, depth+1)
		}
	case *ssa.ChangeType:
		return key(v.X, depth+1)
	case *ssa.Convert:
		return key(v.X, depth+1)
	case *ssa.MakeInterface:
		return key(v.X, depth+1)
	case *ssa.ChangeInterface:
		return key(v.X, depth+1)
	case *ssa.TypeAssert:
		if !v.CommaOk {
			return key(v.X, depth+1)
		}
	case *ssa.IndexAddr:
		return key(v.X, depth+1) + "[" + key(v.Index, depth+1) + "]"
	case *ssa.Index:
		return key(v.X, depth+1) + "[" + key(v.Index, depth+1) + "]"
	case *ssa.Lookup:
		if !v.CommaOk {
			return key(v.X, depth+1) + "[" + key(v.Index, depth+1) + "]"
		}
	case *ssa.Phi:
		return phiKey(v, depth)
	case *ssa.Call:
		return callKey(v, depth)
	}
	return opaque(v)
}

// opaque is the key of a value that no path names: the value itself,
// which is unique within its function.
func opaque(v ssa.Value) string { return "$" + v.Name() }

// fieldKey names field i of the struct that x is or points to. An embedded
// field adds nothing to the path.
func fieldKey(x ssa.Value, t types.Type, i int, depth int) string {
	base := key(x, depth+1)
	f := fieldOf(t, i)
	if f == nil {
		return base + ".?"
	}
	if f.Embedded() {
		return base
	}
	return base + "." + f.Name()
}

func fieldOf(t types.Type, i int) *types.Var {
	t = t.Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	s, ok := t.(*types.Struct)
	if !ok || i < 0 || i >= s.NumFields() {
		return nil
	}
	return s.Field(i)
}

// phiKey is the common key of the φ's edges, ignoring edges that are the
// φ itself (a loop that keeps the same mutex), or the φ's own opaque key.
func phiKey(phi *ssa.Phi, depth int) string {
	common := ""
	for _, e := range phi.Edges {
		if e == phi {
			continue
		}
		k := key(e, depth+1)
		if common == "" {
			common = k
		} else if k != common {
			return opaque(phi)
		}
	}
	if common == "" {
		return opaque(phi)
	}
	return common
}

// callKey keys the result of a static call by callee and arguments.
func callKey(call *ssa.Call, depth int) string {
	callee := call.Call.StaticCallee()
	if callee == nil {
		return opaque(call)
	}
	var b strings.Builder
	b.WriteString(callee.String())
	b.WriteByte('(')
	for i, a := range call.Call.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(key(a, depth+1))
	}
	b.WriteByte(')')
	return b.String()
}

// Class names the mutex of l by where it lives, independent of the
// function that locks it, so that two functions' locks of one field
// compare equal:
//
//	s.mu.Lock() in (*S).a and t.mu.Lock() in (*S).b   "example.com/p.S.mu"
//	s.Lock() (S embeds sync.Mutex), or S as a Locker    "example.com/p.S"
//	mu.Lock() on a package-level var mu                 "example.com/p.mu"
//
// Locks of one class need not be one mutex: the field of two instances
// is two mutexes. A mutex that is a parameter, a local or an element has
// no class, and Class returns "".
func Class(l Lock) string {
	_, _, recv := classify(l.Call)
	if recv == nil {
		return ""
	}
	return classOf(recv, 0)
}

func classOf(v ssa.Value, depth int) string {
	if depth > maxKeyDepth {
		return ""
	}
	switch v := v.(type) {
	case *ssa.Global:
		return v.Pkg.Pkg.Path() + "." + v.Name()
	case *ssa.FieldAddr:
		return fieldClass(v.X, v.Field, depth)
	case *ssa.Field:
		return fieldClass(v.X, v.Field, depth)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return classOf(v.X, depth+1)
		}
	case *ssa.ChangeType:
		return classOf(v.X, depth+1)
	case *ssa.MakeInterface:
		return typeClass(v.X.Type())
	case *ssa.ChangeInterface:
		return classOf(v.X, depth+1)
	}
	return ""
}

// fieldClass names field i of the struct x is or points to by the
// struct's type; an embedded mutex is its struct's own class. A struct
// that is nothing but an embedded mutex (a project's own Mutex type,
// struct{ sync.Mutex }) is a mutex: its class is where it is kept, the
// field or variable that holds it, as a sync.Mutex's would be, so that
// two of them in different structs are two classes.
func fieldClass(x ssa.Value, i int, depth int) string {
	f := fieldOf(x.Type(), i)
	if f == nil {
		return ""
	}
	if f.Embedded() {
		if onlyField(x.Type()) {
			if c := classOf(x, depth+1); c != "" {
				return c
			}
		}
		if c := typeClass(x.Type()); c != "" {
			return c
		}
		return classOf(x, depth+1)
	}
	if c := typeClass(x.Type()); c != "" {
		return c + "." + f.Name()
	}
	return ""
}

// typeClass names the named type t is or points to, by its generic
// origin.
func typeClass(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	n = n.Origin()
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// onlyField reports whether the struct t is or points to has one field.
func onlyField(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return ok && st.NumFields() == 1
}

// Exported reports whether code outside the package can take a lock of
// the class (see Class): its last name, the field that holds the mutex,
// the type that embeds it or the variable, is exported. s.mu is the
// package's own; a type that embeds sync.Mutex exports Lock with its
// name.
func Exported(class string) bool {
	last := class[strings.LastIndexByte(class, '.')+1:]
	return token.IsExported(last)
}
