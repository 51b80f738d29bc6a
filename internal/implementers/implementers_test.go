package implementers

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

const src = `package p

type Closer interface{ Close() error }
type ReadCloser interface {
	Read() int
	Closer
}
type empty interface{}

type value struct{}            // Close on the value
type pointer struct{}          // Close on the pointer only
type promoted struct{ *value } // Close promoted from an embedded field
type shadowed struct {
	Close int // a field hides the promoted method
	value
}
type both struct{ value }
type none struct{}
type named *value // a defined pointer type has no methods
type deep struct{ promoted }     // Close two levels down
type viaIface struct{ Closer }   // Close of an embedded interface
type ambiguous struct {          // two Close at one depth: neither counts
	value
	other
}
type other struct{}

func (other) Close() error { return nil }

func (value) Close() error    { return nil }
func (*pointer) Close() error { return nil }
func (both) Read() int        { return 0 }
`

// TestOf checks the answers against types.Implements on T, then *T.
func TestOf(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var named []types.Type
	for _, n := range pkg.Scope().Names() {
		if tn := pkg.Scope().Lookup(n).(*types.TypeName); !types.IsInterface(tn.Type()) {
			named = append(named, tn.Type())
		}
	}
	finder := New(named)
	for _, name := range []string{"Closer", "ReadCloser", "empty"} {
		iface := pkg.Scope().Lookup(name).Type().Underlying().(*types.Interface)
		var want []string
		for _, typ := range named {
			for _, recv := range []types.Type{typ, types.NewPointer(typ)} {
				if types.Implements(recv, iface) {
					want = append(want, recv.String())
					break
				}
			}
		}
		var got []string
		for _, typ := range finder.Of(iface) {
			got = append(got, typ.String())
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", name, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %v, want %v", name, got, want)
			}
		}
		t.Logf("%s: %v", name, got)
	}
}
