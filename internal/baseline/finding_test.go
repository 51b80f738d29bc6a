package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sendlint/sendlint/internal/finding"
)

// writeFile writes src to a file in a fresh directory and returns its path.
func writeFile(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func hubSource(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hub.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestFunction(t *testing.T) {
	path := writeFile(t, "hub.go", hubSource(t))
	src := NewSources()
	for _, tc := range []struct {
		line, col int
		want      string
	}{
		{6, 8, "(*Hub).Publish"},
		{11, 9, "(Hub).Copy"}, // inside a func literal
		{16, 5, "Free"},
		{19, 14, ""}, // package level
		{3, 1, ""},
		{99, 1, ""}, // past the end
	} {
		if got := src.Function(path, tc.line, tc.col); got != tc.want {
			t.Errorf("Function(%d:%d) = %q, want %q", tc.line, tc.col, got, tc.want)
		}
	}
	if got := src.Function(filepath.Join(t.TempDir(), "missing.go"), 1, 1); got != "" {
		t.Errorf("Function of a missing file = %q", got)
	}
}

func TestSnippet(t *testing.T) {
	path := writeFile(t, "hub.go", hubSource(t))
	src := NewSources()
	if got, want := src.Snippet(path, 6), "h . out <- msg"; got != want {
		t.Errorf("Snippet(6) = %q, want %q", got, want)
	}
	for _, tc := range []struct{ a, b string }{
		{"\th.out <- msg // reply", "h.out<-msg"},
		{"x := map[string]int{\"a\":1}", "x  :=  map[string]int{ \"a\": 1 } /* c */"},
	} {
		if na, nb := normalize([]byte(tc.a)), normalize([]byte(tc.b)); na != nb {
			t.Errorf("normalize(%q) = %q, normalize(%q) = %q: want them equal", tc.a, na, tc.b, nb)
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"h.out <- msg", "h.out <- msg2"},
		{`ch <- "a b"`, `ch <- "a  b"`}, // string contents count
	} {
		if na, nb := normalize([]byte(tc.a)), normalize([]byte(tc.b)); na == nb {
			t.Errorf("normalize(%q) = normalize(%q) = %q: want them different", tc.a, tc.b, na)
		}
	}
	// A line inside a raw string still yields something stable.
	if got := normalize([]byte("still `inside")); !strings.Contains(got, "still") {
		t.Errorf("normalize of a broken line = %q", got)
	}
}

// TestKeySurvivesMovedLines checks the property the baseline exists for:
// edits elsewhere that move a finding's line keep its fingerprint; edits of
// the line, the function's name or the message change it.
func TestKeySurvivesMovedLines(t *testing.T) {
	orig := hubSource(t)
	f := finding.Finding{Pass: "baresend", Package: "example.com/hub [example.com/hub.test]", Message: "send on h.out can block forever", Pos: finding.Position{Line: 6, Col: 8}}
	key := func(src string, line int, mutate func(*finding.Finding)) string {
		f := f
		f.Pos.File = writeFile(t, "hub.go", src)
		f.Pos.Line = line
		if mutate != nil {
			mutate(&f)
		}
		return KeyOf(f, NewSources()).Fingerprint()
	}
	base := key(orig, 6, nil)
	moved := strings.Replace(orig, "package hub\n", "package hub\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n", 1)
	moved = strings.Replace(moved, "\th.out <- msg // reply", "\th.out   <- msg // reply to the subscriber", 1)
	if got := key(moved, 10, nil); got != base {
		t.Errorf("moved and re-commented line: fingerprint %s, want %s", got, base)
	}
	if got := key(orig, 6, func(f *finding.Finding) { f.Package = "example.com/hub" }); got != base {
		t.Errorf("test variant's package changes the fingerprint")
	}
	for name, got := range map[string]string{
		"edited line":      key(strings.Replace(orig, "h.out <- msg // reply", "h.out <- msg + \"!\"", 1), 6, nil),
		"renamed function": key(strings.Replace(orig, "Publish", "Broadcast", 1), 6, nil),
		"other message":    key(orig, 6, func(f *finding.Finding) { f.Message += "; in a loop" }),
		"other pass":       key(orig, 6, func(f *finding.Finding) { f.Pass = "lockedsend" }),
	} {
		if got == base {
			t.Errorf("%s: fingerprint unchanged", name)
		}
	}
	// A position quoted in the message does not pin the line either.
	withPos := func(p string) func(*finding.Finding) {
		return func(f *finding.Finding) { f.Message = "send blocks: receiver started at hub.go:" + p }
	}
	if key(orig, 6, withPos("12:3")) != key(orig, 6, withPos("40:3")) {
		t.Errorf("a position in the message changes the fingerprint")
	}
}
