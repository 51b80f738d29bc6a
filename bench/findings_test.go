package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestCountText(t *testing.T) {
	out := `# example.com/p
# [example.com/p]
vet: p/bad.go:3:1: undefined: x
p/a.go:8:2: self-assignment of v
/abs/p/b.go:12:9: send on c can block forever
/abs/p/c.go:1:2: 	the channel is made here
	context line
p/d.go:4:1: should omit type int (ST1023)
-: could not load export data
`
	findings, other, err := countText(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if findings != 3 || other != 2 {
		t.Errorf("countText = %d findings, %d other; want 3, 2", findings, other)
	}
}

func TestPassCounts(t *testing.T) {
	// go vet -json prints one object per package; the standalone checker one
	// object for all packages. Both shapes are read the same way.
	stream := `{
	"example.com/p": {
		"baresend": [{"posn": "p.go:1:2", "message": "m"}, {"posn": "p.go:3:4", "message": "m"}],
		"lockedsend": {"error": "boom"}
	}
}
{"example.com/q": {"baresend": [{"posn": "q.go:1:2", "message": "m"}], "silentdrop": []}}
{"example.com/q [example.com/q.test]": {"baresend": [{"posn": "q.go:1:2", "message": "m"}]}}
`
	counts, errs, err := passCounts(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"baresend": 3, "silentdrop": 0}
	if !reflect.DeepEqual(counts, want) || errs != 1 {
		t.Errorf("passCounts = %v, %d errors; want %v, 1", counts, errs, want)
	}
}
