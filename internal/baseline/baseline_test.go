package baseline

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sendlint/sendlint/internal/finding"
)

func TestCompare(t *testing.T) {
	b := &File{Version: Version, Findings: []Entry{
		{Fingerprint: "aa", Count: 2},
		{Fingerprint: "bb", Count: 1},
		{Fingerprint: "cc", Count: 3},
	}}
	// Two copies of aa are accepted and a third is new; dd is new; bb is
	// gone, and so are two of the three accepted cc.
	r := b.Compare([]string{"aa", "dd", "aa", "cc", "aa"})
	if !slices.Equal(r.New, []int{1, 4}) {
		t.Errorf("New = %v, want [1 4]", r.New)
	}
	if r.Accepted != 3 {
		t.Errorf("Accepted = %d, want 3", r.Accepted)
	}
	if r.GoneCount() != 3 || len(r.Gone) != 2 || r.Gone[0].Fingerprint != "bb" || r.Gone[1].Count != 2 {
		t.Errorf("Gone = %+v, want bb once and cc twice", r.Gone)
	}
	want := "baseline b.json: 3 accepted findings hidden; 3 accepted findings are no longer found (rewrite the baseline with -write-baseline to drop them)"
	if got := r.Summary("b.json"); got != want {
		t.Errorf("Summary = %q\nwant      %q", got, want)
	}
	if got := (Result{Accepted: 1}).Summary("b"); got != "baseline b: 1 accepted finding hidden" {
		t.Errorf("Summary = %q", got)
	}
}

func TestNewAndRoundTrip(t *testing.T) {
	path := writeFile(t, "hub.go", hubSource(t))
	dir := filepath.Dir(path)
	at := func(line, col int, msg string) finding.Finding {
		return finding.Finding{Pass: "baresend", Package: "example.com/hub", Message: msg, Pos: finding.Position{File: path, Line: line, Col: col}}
	}
	findings := []finding.Finding{at(16, 5, "send on ch"), at(6, 8, "send on h.out"), at(16, 5, "send on ch")}
	b := New(findings, NewSources(), dir)
	if b.Total() != 3 || len(b.Findings) != 2 {
		t.Fatalf("New: %d entries for %d findings, want 2 for 3:\n%s", len(b.Findings), b.Total(), b.Marshal())
	}
	e := b.Findings[0]
	if e.Function != "(*Hub).Publish" || e.File != "hub.go" || e.Snippet != "h . out <- msg" || e.Count != 1 {
		t.Errorf("first entry %+v", e)
	}
	if b.Findings[1].Function != "Free" || b.Findings[1].Count != 2 {
		t.Errorf("second entry %+v", b.Findings[1])
	}
	out := filepath.Join(dir, "baseline.json")
	if err := b.Write(out); err != nil {
		t.Fatal(err)
	}
	back, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(back.Marshal()) != string(b.Marshal()) {
		t.Errorf("read back\n%s\nwrote\n%s", back.Marshal(), b.Marshal())
	}
	r := back.Compare(Fingerprints(findings, NewSources()))
	if len(r.New) != 0 || r.Accepted != 3 || len(r.Gone) != 0 {
		t.Errorf("the baseline of the findings does not accept them all: %+v", r)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`[]`, "not a sendlint baseline"},
		{`{"version": 1, "tool": "sendlint", "findings": [], "extra": 1}`, `unknown field "extra"`},
		{`{"version": 2, "tool": "sendlint", "findings": []}`, "baseline version 2, want 1"},
		{`{"version": 1, "tool": "sendlint", "findings": [{"fingerprint": "aa", "count": 0}]}`, "entry 1 needs a fingerprint and a count"},
	} {
		_, err := Parse([]byte(tc.data), "b.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "b.json: ") {
			t.Errorf("Parse(%s): error %v, want %q", tc.data, err, tc.want)
		}
	}
	if _, err := Parse([]byte(`{"version": 1, "tool": "sendlint", "findings": []}`), "b"); err != nil {
		t.Errorf("an empty baseline: %v", err)
	}
}
