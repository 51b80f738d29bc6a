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

func TestPrefixSizes(t *testing.T) {
	got := prefixSizes([]int{25, 50, 0, 400}, 362)
	if want := []int{25, 50, 362}; !reflect.DeepEqual(got, want) {
		t.Errorf("prefixSizes = %v, want %v", got, want)
	}
}

func TestMedians(t *testing.T) {
	got := medians(map[string][]sample{"x": {{Wall: 3, TreeRSS: 10}, {Wall: 1, TreeRSS: 30}, {Wall: 2, TreeRSS: 20}, {Wall: 10, TreeRSS: 40}}})
	if got["x"].Wall != 2.5 || got["x"].TreeRSS != 25 {
		t.Errorf("medians = %+v, want Wall 2.5, TreeRSS 25", got["x"])
	}
}

func TestUserArgs(t *testing.T) {
	got := userArgs([]string{"-root", "/r", "-work", "/w", "-buildcache", "/c", "-targets", "std", "-n", "3"})
	if want := []string{"-targets", "std", "-n", "3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("userArgs = %v, want %v", got, want)
	}
}

func TestRootOf(t *testing.T) {
	for path, want := range map[string]string{
		"a/b":                 "a/b",
		"a/b [a/b.test]":      "a/b",
		"a/b_test [a/b.test]": "a/b",
		"a/b.test":            "a/b",
	} {
		if got := rootOf(listEntry{ImportPath: path}); got != want {
			t.Errorf("rootOf(%q) = %q, want %q", path, got, want)
		}
	}
}
