package main

import "testing"

func TestAskedPath(t *testing.T) {
	asked := map[string]bool{"example.com/p": true, "example.com/q": true}
	for _, c := range []struct {
		id   string
		path string
		ok   bool
	}{
		{"example.com/p", "example.com/p", true},
		{"example.com/p [example.com/p.test]", "example.com/p", true},
		{"example.com/p_test [example.com/p.test]", "example.com/p", true},
		{"example.com/p [example.com/q.test]", "example.com/q", false}, // built for q's test: a dependency
		{"example.com/r", "example.com/r", false},
	} {
		path, ok := askedPath(c.id, asked)
		if ok != c.ok || ok && path != c.path {
			t.Errorf("askedPath(%q) = %q, %v; want %q, %v", c.id, path, ok, c.path, c.ok)
		}
	}
}

// A package with tests is analysed through its test variant while the
// package itself runs facts-only as the tests' dependency: only a package
// whose every unit was facts-only had its output replayed.
func TestReplayed(t *testing.T) {
	asked := map[string]bool{"a": true, "b": true, "c": true}
	res := &results{marks: map[string][]string{
		"a":          {markFactsOnly},
		"a [a.test]": {markAnalysed},
		"b":          {markFactsOnly},
		"c":          {markAnalysed},
		"d":          {markFactsOnly},
	}}
	if got := res.replayed(asked); len(got) != 1 || got[0] != "b" {
		t.Errorf("replayed = %q, want [b]", got)
	}
}
