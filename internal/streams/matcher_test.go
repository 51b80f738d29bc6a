package streams_test

import (
	"go/types"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/sendlint/sendlint/internal/streams"
)

func TestNewMatcherAcceptsWellFormedEntries(t *testing.T) {
	streamsList := []string{
		"example.com/x.Pipe",
		"gopkg.in/yaml.v3.Node", // dots in the last path element
		"main.T",
		" example.com/x/y.T ", // surrounding space from a flag list
	}
	blocking := []string{
		"example.com/x.Queue.Put",
		"gopkg.in/yaml.v3.Encoder.Encode",
		"main.T.send", // unexported methods are allowed
	}
	if _, err := streams.NewMatcher(streamsList, blocking); err != nil {
		t.Fatalf("NewMatcher: %v", err)
	}
}

func TestNewMatcherRejectsMalformedEntries(t *testing.T) {
	for _, tc := range []struct {
		streams, blocking []string
		want              string
	}{
		{streams: []string{""}, want: `malformed stream type ""`},
		{streams: []string{"Pipe"}, want: `malformed stream type "Pipe"`},
		{streams: []string{"example.com/x"}, want: `malformed stream type "example.com/x"`},
		{streams: []string{"example.com/x."}, want: `malformed stream type "example.com/x."`},
		{streams: []string{"example.com/x.1T"}, want: `malformed stream type "example.com/x.1T"`},
		{streams: []string{"(*example.com/x.T)"}, want: `malformed stream type "(*example.com/x.T)"`},
		{streams: []string{"example.com//x.T"}, want: `malformed stream type "example.com//x.T"`},
		{streams: []string{".T"}, want: `malformed stream type ".T"`},
		{blocking: []string{"example.com/x.T"}, want: `malformed blocking method "example.com/x.T": want pkg/path.Type.Method`},
		{blocking: []string{"example.com/x.T."}, want: `malformed blocking method "example.com/x.T."`},
		{blocking: []string{".T.M"}, want: `malformed blocking method ".T.M"`},
		{blocking: []string{"example.com/x.T.M extra"}, want: `malformed blocking method`},
		{blocking: []string{"example.com/x.T.M,example.com/x.T.N"}, want: `malformed blocking method`},
		{blocking: []string{"(*example.com/x.T).M"}, want: `malformed blocking method`},
	} {
		_, err := streams.NewMatcher(tc.streams, tc.blocking)
		if err == nil {
			t.Errorf("NewMatcher(%q, %q) succeeded, want error %q", tc.streams, tc.blocking, tc.want)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
			t.Errorf("NewMatcher(%q, %q) = %q, want one line containing %q", tc.streams, tc.blocking, msg, tc.want)
		}
	}
}

// loadFixture type-checks one package of the fixture tree from source,
// GOPATH style, so that its unexported types are in scope.
func loadFixture(t *testing.T, path string) *types.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.NeedTypes | packages.NeedName | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:  testdata(t),
		Env:  append(os.Environ(), "GOPATH="+testdata(t), "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, path)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 || len(pkgs) != 1 {
		t.Fatalf("loading %s failed", path)
	}
	return pkgs[0].Types
}

func lookupType(t *testing.T, pkg *types.Package, name string) types.Type {
	t.Helper()
	tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		t.Fatalf("%s.%s is not a type", pkg.Path(), name)
	}
	return tn.Type()
}

func lookupMethod(t *testing.T, pkg *types.Package, typ, method string) *types.Func {
	t.Helper()
	obj, _, _ := types.LookupFieldOrMethod(lookupType(t, pkg, typ), true, pkg, method)
	fn, ok := obj.(*types.Func)
	if !ok {
		t.Fatalf("%s.%s.%s is not a method", pkg.Path(), typ, method)
	}
	return fn
}

// TestConfigurationIsNeeded checks that configured types are sends only
// under their configuration, and that IsStream follows embedding.
func TestConfigurationIsNeeded(t *testing.T) {
	pkg := loadFixture(t, "streams/configured")
	configured, err := streams.NewMatcher([]string{"streams/configured.Pipe"}, []string{"streams/configured.Queue.Put"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typ, method           string
		byDefault, configured bool
	}{
		{"Pipe", "Send", false, true},
		{"Pipe", "SendMsg", false, true},
		{"Pipe", "Close", false, false},
		{"Queue", "Put", false, true},
		{"Queue", "Len", false, false},
		{"Buffered", "Send", false, true},
		{"Store", "Send", false, false},
		{"Store", "Put", false, true}, // promoted Queue.Put is the same object
	} {
		fn := lookupMethod(t, pkg, tc.typ, tc.method)
		if got := defaultMatcher(t).IsSend(fn); got != tc.byDefault {
			t.Errorf("default IsSend(%s.%s) = %v, want %v", tc.typ, tc.method, got, tc.byDefault)
		}
		if got := configured.IsSend(fn); got != tc.configured {
			t.Errorf("configured IsSend(%s.%s) = %v, want %v", tc.typ, tc.method, got, tc.configured)
		}
	}
	for typ, want := range map[string]bool{"Pipe": true, "Buffered": true, "Queue": false, "Store": false} {
		if got := configured.IsStream(types.NewPointer(lookupType(t, pkg, typ))); got != want {
			t.Errorf("configured IsStream(*%s) = %v, want %v", typ, got, want)
		}
	}
}

func TestIsStreamDefaults(t *testing.T) {
	pkg := loadFixture(t, "streams/grpcsend")
	m := defaultMatcher(t)
	for typ, want := range map[string]bool{
		"RouteGuide_ListFeaturesServer": true, // alias of grpc.ServerStreamingServer[Feature]
		"RouteGuide_RouteChatServer":    true, // embeds grpc.ServerStream
		"routeGuideRouteChatServer":     true, // struct embedding grpc.ServerStream
		"chatStream":                    true, // embeds a generated interface
		"mailbox":                       false,
		"sender":                        false,
	} {
		if got := m.IsStream(lookupType(t, pkg, typ)); got != want {
			t.Errorf("IsStream(%s) = %v, want %v", typ, got, want)
		}
	}
}
