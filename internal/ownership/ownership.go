package ownership

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"runtime/debug"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/directive"
	"github.com/sendlint/sendlint/internal/streams"
	"github.com/sendlint/sendlint/internal/summary"
)

// Analyzer computes the senders of each stream of a package and exports
// ParamUse facts. It reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "sendlintownership",
	Doc:        "find the goroutines that send on each gRPC or connect stream",
	Requires:   []*analysis.Analyzer{summary.Analyzer, directive.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(ParamUse)},
	Run:        run,
}

// matcher recognises the default grpc and connect stream sends. It is
// immutable and shared by all packages.
var matcher = mustMatcher()

func mustMatcher() *streams.Matcher {
	m, err := streams.NewMatcher(nil, nil)
	if err != nil {
		panic(err)
	}
	return m
}

// Result is what the analysis found in one package.
type Result struct {
	// Streams are the package's streams that have at least one send site,
	// in source order of their owners.
	Streams []*Stream
	// Flow describes the sends for messages; nil when Streams is empty.
	Flow *streams.Flow
	// Marked are the functions marked //sendlint:sender, and Unmatched the
	// positions of such directives that precede no function.
	Marked    map[*ssa.Function]bool
	Unmatched []token.Pos
	// Err is set when the analysis failed on this package; Streams is then
	// empty. A failure is reported by the pass, never a crash.
	Err error
}

// A Stream is one stream as it enters the package, and every send on it
// that the package makes.
type Stream struct {
	Owner *ssa.Function
	// Value is the owner's parameter, or the call (or its extracted result)
	// that opened the stream.
	Value ssa.Value
	// Name names the stream as written: the parameter, or the variable the
	// opening call was assigned to; "" when it has no name.
	Name  string
	Sites []*Site
	// Stores are where the stream or its Send was put in a place other
	// functions load it from.
	Stores []*Store
}

// Pos is where the stream enters its owner.
func (s *Stream) Pos() token.Pos {
	if p := s.Value.Pos(); p.IsValid() {
		return p
	}
	return s.Owner.Pos()
}

// A Site is a call that sends on the stream, with the goroutines that may
// run it.
type Site struct {
	// Call sends: it calls a stream send method, a func value that holds
	// one, or a dependency's function that sends on an argument (Callee).
	Call    ssa.CallInstruction
	Callee  *types.Func
	Senders []Sender
}

// A Sender is one goroutine that may make a site's call.
type Sender struct {
	G Goroutine
	// At is the instruction of the goroutine's own function (the owner for
	// Owner, the started function for Started, the entry point for Entry)
	// through which the send is reached: the site's call itself when that
	// function makes it. It is where a report belongs.
	At ssa.Instruction
	// Store is set when the send reaches the stream through a stored value.
	Store *Store
}

// Kind says what kind of goroutine a Goroutine is.
type Kind uint8

const (
	Owner    Kind = iota + 1 // the goroutine that runs the stream's owner
	Started                  // a goroutine started with the stream
	Entry                    // whatever goroutine calls an entry point
	Marked                   // a function marked //sendlint:sender
	Callback                 // a closure called later by code the package cannot see
	anchor                   // internal: whatever goroutine runs Fn; resolved by the call graph
)

func (k Kind) String() string {
	switch k {
	case Owner:
		return "owner"
	case Started:
		return "started"
	case Entry:
		return "entry"
	case Marked:
		return "marked"
	case Callback:
		return "callback"
	}
	return "anchor"
}

// A Goroutine is a goroutine as the analysis can name it.
type Goroutine struct {
	Kind Kind
	// Fn is the owner (Owner), the function the goroutine runs (Started;
	// nil when a dependency starts it), the entry point (Entry), the marked
	// function (Marked), or the closure (Callback).
	Fn *ssa.Function
	// Site is the go statement or the call that starts the goroutine
	// (Started), or where the closure escapes (Callback).
	Site ssa.Instruction
	// Multi is set when several such goroutines may send on the same stream
	// at once: the goroutine is started in a loop, or is an entry point
	// that any goroutine may call.
	Multi bool
	// Order is the instruction of the owner's function that leads to this
	// goroutine's send (Owner) or to its start (Started, Marked), or nil
	// when it is not known. Two senders ordered in the owner's function may
	// be sequential rather than concurrent.
	Order ssa.Instruction
}

// Same reports whether g and h are the same goroutine, whatever path led
// to each.
func (g Goroutine) Same(h Goroutine) bool {
	return g.Kind == h.Kind && g.Fn == h.Fn && g.Site == h.Site
}

// A Store is where a stream, or its Send, was put in a place that other
// functions load it from.
type Store struct {
	Instr ssa.Instruction // *ssa.Store, *ssa.MapUpdate or *ssa.Send
	Key   Key
	// Send is set when the stored value is the stream's Send rather than
	// the stream.
	Send bool
	// Cross is set when the place is reached through a collection (Key.Elem,
	// or a struct carrying the stream put in a map, slice or channel): its
	// loads may see other invocations' streams.
	Cross bool
	// Place names the place for messages: "commandRouter.send",
	// "elements of Server.clients".
	Place string
}

// A Key names a place where a stream or its Send may be stored.
type Key struct {
	// Obj is the struct field (the generic origin) or package-level
	// variable.
	Obj types.Object
	// Elem is set for the elements of a map, slice, array or channel held
	// in Obj.
	Elem bool
}

func (k Key) String() string {
	name := k.Obj.Name()
	if v, ok := k.Obj.(*types.Var); ok && v.IsField() {
		name = "field " + name
	}
	if k.Elem {
		return "elements of " + name
	}
	return name
}

func run(pass *analysis.Pass) (res any, err error) {
	result := new(Result)
	defer func() {
		if v := recover(); v != nil {
			*result = Result{Err: fmt.Errorf("ownership analysis failed: %v\n%s", v, debug.Stack())}
			res, err = result, nil
		}
	}()
	if inGOROOT(pass) {
		return result, nil
	}
	// The summary builds the package's SSA once for every pass, and never
	// for a GOROOT dependency, which go vet hands every fact producer.
	input := pass.ResultOf[summary.Analyzer].(*summary.Result).SSA()
	idx := pass.ResultOf[directive.Analyzer].(*directive.Index)
	a := newPackage(pass, input, idx)
	result.Marked, result.Unmatched = a.marked, a.unmatched
	result.Streams = a.streams()
	a.exportFacts(result.Streams)
	if len(result.Streams) > 0 {
		result.Flow = matcher.Flow(pass.Pkg, input.SrcFuncs, nil)
	}
	return result, nil
}

// sortSites puts sites in source order.
func sortSites(sites []*Site) {
	sort.SliceStable(sites, func(i, j int) bool { return sites[i].Call.Pos() < sites[j].Call.Pos() })
}
