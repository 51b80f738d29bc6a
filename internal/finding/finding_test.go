package finding

import (
	"path/filepath"
	"testing"
)

func TestParsePosition(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Position
	}{
		{"/a/b.go:12:3", Position{"/a/b.go", 12, 3}},
		{"b.go:12", Position{"b.go", 12, 0}},
		{"C:/a/b.go:1:2", Position{"C:/a/b.go", 1, 2}},
		{"b.go", Position{"b.go", 0, 0}},
		{"", Position{}},
	} {
		if got := ParsePosition(tc.in); got != tc.want {
			t.Errorf("ParsePosition(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	if (Position{File: "b.go"}).Valid() || !(Position{File: "b.go", Line: 1}).Valid() {
		t.Error("Valid wants a file and a line")
	}
}

func TestRel(t *testing.T) {
	root := filepath.FromSlash("/repo")
	for _, tc := range []struct {
		file, want string
		below      bool
	}{
		{"/repo/pkg/a.go", "pkg/a.go", true},
		{"/repo2/a.go", "/repo2/a.go", false},
		{"/other/a.go", "/other/a.go", false},
		{"pkg/a.go", "pkg/a.go", true},
	} {
		got, below := Position{File: filepath.FromSlash(tc.file)}.Rel(root)
		if filepath.ToSlash(got) != tc.want || below != tc.below {
			t.Errorf("Rel(%s) = %q, %v; want %q, %v", tc.file, got, below, tc.want, tc.below)
		}
	}
}

func TestPackagePath(t *testing.T) {
	if got := PackagePath("example.com/p [example.com/p.test]"); got != "example.com/p" {
		t.Errorf("PackagePath = %q", got)
	}
	if got := PackagePath("example.com/p_test [example.com/p.test]"); got != "example.com/p_test" {
		t.Errorf("PackagePath = %q", got)
	}
}
