package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

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
	got := userArgs([]string{"-root", "/r", "-work", "/w", "-buildcache", "/c", "-targets", "std", "-keep",
		"-sendlint=/tmp/x", "-o", "out.md", "-n", "3"})
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

func TestCheckReportPath(t *testing.T) {
	dir := t.TempDir()
	for path, want := range map[string]string{
		"-":                                "",
		filepath.Join(dir, "report.md"):    "",
		dir:                                "is a directory",
		filepath.Join(dir, "none", "r.md"): "does not exist",
	} {
		err := checkReportPath(path)
		switch {
		case want == "" && err != nil:
			t.Errorf("checkReportPath(%q) = %v, want nil", path, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("checkReportPath(%q) = %v, want an error saying %q", path, err, want)
		}
	}
}
