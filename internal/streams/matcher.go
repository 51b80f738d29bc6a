package streams

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// maxEmbedDepth bounds the walk through embedded fields and interfaces when
// deciding whether a type is a stream. Generated code embeds one level deep;
// the bound only guards against pathological types.
const maxEmbedDepth = 5

// A Matcher decides which methods are stream sends. It is immutable after
// NewMatcher returns, so one Matcher may serve many packages at once.
type Matcher struct {
	// types maps an import path and a type name to what the type contributes.
	types map[string]map[string]*typeEntry
}

// typeEntry is what configuration says about one named type.
type typeEntry struct {
	stream  bool            // a stream: derived types inherit its sends
	methods map[string]bool // methods that block like a send
}

// NewMatcher returns a Matcher for the default grpc and connect streams plus
// the configured ones. Each streams entry has the form pkg/path.Type and
// makes Type a stream whose Send, SendMsg and SendAndClose methods are
// sends. Each blocking entry has the form pkg/path.Type.Method and makes
// that one method a send. A malformed entry is an error.
func NewMatcher(streams, blocking []string) (*Matcher, error) {
	m := &Matcher{types: make(map[string]map[string]*typeEntry)}
	for _, e := range defaultSends() {
		if err := m.addBlocking(e, true); err != nil {
			return nil, fmt.Errorf("default entry: %v", err)
		}
	}
	for _, e := range streams {
		path, typ, err := parseType(e)
		if err != nil {
			return nil, err
		}
		te := m.entry(path, typ)
		te.stream = true
		for _, name := range []string{"Send", "SendMsg", "SendAndClose"} {
			te.methods[name] = true
		}
	}
	for _, e := range blocking {
		if err := m.addBlocking(e, false); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *Matcher) addBlocking(e string, stream bool) error {
	path, typ, method, err := parseMethod(e)
	if err != nil {
		return err
	}
	te := m.entry(path, typ)
	te.stream = te.stream || stream
	te.methods[method] = true
	return nil
}

func (m *Matcher) entry(path, typ string) *typeEntry {
	byName := m.types[path]
	if byName == nil {
		byName = make(map[string]*typeEntry)
		m.types[path] = byName
	}
	te := byName[typ]
	if te == nil {
		te = &typeEntry{methods: make(map[string]bool)}
		byName[typ] = te
	}
	return te
}

// IsSend reports whether fn, or the generic method it instantiates, is a
// stream send.
func (m *Matcher) IsSend(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	fn = fn.Origin()
	return m.listed(fn) || m.derived(fn)
}

// listed reports whether fn is one of the configured methods. It compares
// object identity: the configured type is looked up in fn's own package and
// its method of the same name must be fn. Interface methods keep their
// identity through embedding, so (grpc.ServerStream).SendMsg is found when
// it is called on a BidiStreamingServer or on a generated interface.
func (m *Matcher) listed(fn *types.Func) bool {
	for typ, te := range m.types[fn.Pkg().Path()] {
		if !te.methods[fn.Name()] {
			continue
		}
		tn, ok := fn.Pkg().Scope().Lookup(typ).(*types.TypeName)
		if !ok {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, fn.Pkg(), fn.Name())
		if f, ok := obj.(*types.Func); ok && f.Origin() == fn {
			return true
		}
	}
	return false
}

// derived reports whether fn is a send method declared on a type that is
// built around a stream but is not itself configured:
//
//	type RouteGuide_ListFeaturesServer interface { // old protoc-gen-go-grpc
//		Send(*Feature) error
//		grpc.ServerStream
//	}
//	type routeGuideListFeaturesServer struct{ grpc.ServerStream }
//	func (x *routeGuideListFeaturesServer) Send(m *Feature) error
//
// The method must be named like a send and take one argument and return
// only an error, which every generated Send does.
func (m *Matcher) derived(fn *types.Func) bool {
	if !isSendName(fn.Name()) || !sendSignature(fn) {
		return false
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	// The gc importer may give abstract methods the bare *types.Interface as
	// receiver; then the declaring type is unknown and the method is not
	// matched. Go 1.26's importers give the *types.Named.
	named := namedOf(recv.Type())
	return named != nil && m.embedsStream(named, 0)
}

// IsStream reports whether t, or the type t points to, is a stream type: a
// configured stream, or an interface or struct that embeds one.
func (m *Matcher) IsStream(t types.Type) bool {
	named := namedOf(t)
	return named != nil && (m.isStreamNamed(named) || m.embedsStream(named, 0))
}

func (m *Matcher) isStreamNamed(named *types.Named) bool {
	obj := named.Obj()
	if obj.Pkg() == nil {
		return false
	}
	te := m.types[obj.Pkg().Path()][obj.Name()]
	return te != nil && te.stream
}

// embedsStream reports whether named's interface or struct embeds a stream.
func (m *Matcher) embedsStream(named *types.Named, depth int) bool {
	if depth > maxEmbedDepth {
		return false
	}
	var embedded []types.Type
	switch u := named.Underlying().(type) {
	case *types.Interface:
		for i := range u.NumEmbeddeds() {
			embedded = append(embedded, u.EmbeddedType(i))
		}
	case *types.Struct:
		for i := range u.NumFields() {
			if f := u.Field(i); f.Embedded() {
				embedded = append(embedded, f.Type())
			}
		}
	}
	for _, t := range embedded {
		if e := namedOf(t); e != nil && (m.isStreamNamed(e) || m.embedsStream(e, depth+1)) {
			return true
		}
	}
	return false
}

// Direct returns the stream send that a call names, or nil. It recognises
//
//	t1 = invoke stream.Send(m)                          // interface
//	t1 = (*connect.BidiStream[Req, Res]).Send(s, m)     // concrete, static
//	t1 = (*connect.BidiStream[Req, Res]).Send$thunk(s, m) // method expression
//	t2 = t1(m)   where t1 = make closure (...).Send$bound [s]
//
// The last form is a method value called where it was taken; Flow.Send
// also reports where the value was made.
func (m *Matcher) Direct(cc *ssa.CallCommon) *types.Func {
	if cc.IsInvoke() {
		return m.sendOrNil(cc.Method)
	}
	callee := cc.StaticCallee()
	if callee == nil {
		return nil
	}
	fn, _ := callee.Object().(*types.Func)
	return m.sendOrNil(fn)
}

// MethodValue returns the stream send that v holds when v is a method
// value or method expression of it, or nil. Method values are bound
// wrappers with the receiver as their one free variable; method expressions
// are thunks used as plain function values:
//
//	t2 = make closure (*connect.BidiStream[M, M]).Send$bound [s]
//	t1 = typeassert s.(Gen_Server)                 // nil check of an interface
//	t2 = make closure (Gen_Server).Send$bound [s]
//	t3 = change interface grpc.ServerStream <- grpc.ServerStreamingServer[M] (s)
//	t4 = make closure (grpc.ServerStream).SendMsg$bound [t3]
//	*t0 = (*connect.BidiStream[M, M]).Send$thunk   // f := (*BidiStream[M, M]).Send
//
// In both wrappers the ssa.Function's Object is the wrapped method while
// its own signature has no receiver; that is how they are told apart from
// the method itself.
func (m *Matcher) MethodValue(v ssa.Value) *types.Func {
	switch v := v.(type) {
	case *ssa.MakeClosure:
		fn, ok := v.Fn.(*ssa.Function)
		if !ok || len(v.Bindings) != 1 || !isMethodWrapper(fn) {
			return nil
		}
		return m.sendOrNil(fn.Object().(*types.Func))
	case *ssa.Function:
		if !isMethodWrapper(v) || len(v.FreeVars) != 0 {
			return nil
		}
		return m.sendOrNil(v.Object().(*types.Func))
	}
	return nil
}

func (m *Matcher) sendOrNil(fn *types.Func) *types.Func {
	if m.IsSend(fn) {
		return fn.Origin()
	}
	return nil
}

// isMethodWrapper reports whether fn is a $bound or $thunk wrapper: its
// object is a method but fn itself takes no receiver.
func isMethodWrapper(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	return ok && obj.Signature().Recv() != nil && fn.Signature.Recv() == nil
}

// isSendName reports whether name is that of a send on a stream type that
// is not listed method by method: a type named by -streams, a generated
// interface that embeds a stream, or a struct that embeds one. NewMatcher
// lists the same names for -streams entries.
func isSendName(name string) bool {
	switch name {
	case "Send", "SendMsg", "SendAndClose":
		return true
	}
	return false
}

// sendSignature reports whether fn looks like Send(m) error.
func sendSignature(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
}

// namedOf returns the generic origin of the named type that t is or points
// to, looking through aliases such as the new protoc-gen-go-grpc
// `type X_Server = grpc.ServerStreamingServer[Feature]`.
func namedOf(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return n.Origin()
	}
	return nil
}

// parseType splits a -streams entry pkg/path.Type.
func parseType(e string) (path, typ string, err error) {
	s := strings.TrimSpace(e)
	path, typ, ok := cutLastDot(s)
	if !ok || !validPath(path) || !token.IsIdentifier(typ) {
		return "", "", fmt.Errorf("malformed stream type %q: want pkg/path.Type", e)
	}
	return path, typ, nil
}

// parseMethod splits a blocking entry pkg/path.Type.Method. The type and
// method are taken from the right, so a last path element with dots
// (gopkg.in/yaml.v3.Node.Encode) parses as path gopkg.in/yaml.v3.
func parseMethod(e string) (path, typ, method string, err error) {
	s := strings.TrimSpace(e)
	rest, method, ok1 := cutLastDot(s)
	path, typ, ok2 := cutLastDot(rest)
	if !ok1 || !ok2 || !validPath(path) || !token.IsIdentifier(typ) || !token.IsIdentifier(method) {
		return "", "", "", fmt.Errorf("malformed blocking method %q: want pkg/path.Type.Method", e)
	}
	return path, typ, method, nil
}

// cutLastDot splits s at its last dot, which must follow the last slash.
func cutLastDot(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, '.')
	if i < 0 || i < strings.LastIndexByte(s, '/') {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// validPath accepts import paths made of non-empty slash-separated
// elements without spaces, quotes or the punctuation of Go expressions.
func validPath(p string) bool {
	if p == "" || strings.ContainsAny(p, " \t\"'`()*[],;:") {
		return false
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
	}
	return true
}
