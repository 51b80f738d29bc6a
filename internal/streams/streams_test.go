package streams_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/streams"
)

// testdata is the module's GOPATH-style fixture tree, which holds the grpc
// and connect stubs.
func testdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// reporter returns an analyzer that reports every call m's Flow recognises
// as a stream send, as "send <method>: <how>", with the origin as related
// information. It is how the passes will use the package.
func reporter(m *streams.Matcher) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "streamsends",
		Doc:      "report every stream send that package streams recognises",
		Requires: []*analysis.Analyzer{buildssa.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			in := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
			flow := m.Flow(pass.Pkg, in.SrcFuncs, nil)
			reportSends(pass, flow, in.SrcFuncs)
			return nil, nil
		},
	}
}

func reportSends(pass *analysis.Pass, flow *streams.Flow, funcs []*ssa.Function) {
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if s, ok := flow.Send(call); ok {
					report(pass, s)
				}
			}
		}
	}
}

func report(pass *analysis.Pass, s streams.Send) {
	d := analysis.Diagnostic{
		Pos:     s.Call.Pos(),
		Message: "send " + s.Origin.Name + ": " + s.Describe(pass.Fset),
	}
	if !s.Direct && s.Origin.Pos.IsValid() {
		d.Related = []analysis.RelatedInformation{{Pos: s.Origin.Pos, Message: "method value taken here"}}
	}
	pass.Report(d)
}

func defaultMatcher(t *testing.T) *streams.Matcher {
	t.Helper()
	m, err := streams.NewMatcher(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGRPCSends covers grpc's stream interfaces, its generic adapters and
// old- and new-style generated streams, each beside calls that are not sends.
func TestGRPCSends(t *testing.T) {
	analysistest.Run(t, testdata(t), reporter(defaultMatcher(t)), "streams/grpcsend")
}

// TestConnectSends covers connect's handler and client streams and the
// interceptor conns.
func TestConnectSends(t *testing.T) {
	analysistest.Run(t, testdata(t), reporter(defaultMatcher(t)), "streams/connectsend")
}

// TestCarriers covers func values that hold a Send: the runner hub's field,
// locals, captured variables, parameters, results and package variables.
func TestCarriers(t *testing.T) {
	analysistest.Run(t, testdata(t), reporter(defaultMatcher(t)), "streams/carriers")
}

// TestConfigured covers -streams and -blocking entries.
func TestConfigured(t *testing.T) {
	m, err := streams.NewMatcher(
		[]string{"streams/configured.Pipe"},
		[]string{"streams/configured.Queue.Put"},
	)
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata(t), reporter(m), "streams/configured")
}
