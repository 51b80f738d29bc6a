package summary

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestAcquiresEncoding round-trips an Acquires fact the way go vet's facts
// travel, as an analysis.Fact in a gob stream, and checks that a fact read
// from a dependency is written on to the next package as it was read.
func TestAcquiresEncoding(t *testing.T) {
	gob.Register(new(Acquires))
	in := &Acquires{
		Locks: []Acquired{{Class: "example.com/p.Store.mu", Write: true}, {Class: "example.com/p.cache"}},
		Invokes: []Invoked{
			{Pkg: "example.com/p", Iface: "Handler", Method: "Serve"},
			{Pkg: "example.com/p", Iface: "Handler", Method: "Close"},
			{Pkg: "example.com/p/q", Iface: "Store", Method: "Serve"},
		},
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode([]analysis.Fact{in, &Acquires{Locks: []Acquired{{Class: "x"}}}}); err != nil {
		t.Fatal(err)
	}
	var out []analysis.Fact
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	got := out[0].(*Acquires)
	want, _ := in.GobEncode()
	if again, _ := got.GobEncode(); !bytes.Equal(again, want) {
		t.Errorf("a read fact is written on as %q, want %q", again, want)
	}
	got.decoded()
	if !reflect.DeepEqual(got.Locks, in.Locks) || !reflect.DeepEqual(got.Invokes, in.Invokes) || got.String() != in.String() {
		t.Errorf("decoded %s, want %s", got, in)
	}
	if s := out[1].(*Acquires).String(); s != "acquires x (read)" {
		t.Errorf("second fact %q", s)
	}
	for _, bad := range [][]byte{{}, {5}, {1, 200, 1}, append(want, 0)} {
		f := &Acquires{}
		if err := f.GobDecode(bad); err != nil {
			t.Fatal(err)
		}
		if f.decoded(); f.Locks != nil || f.Invokes != nil {
			t.Errorf("damaged encoding %v read as %s", bad, f)
		}
	}
}
