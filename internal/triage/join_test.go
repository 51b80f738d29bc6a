package triage

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sendlint/sendlint/internal/finding"
	"github.com/sendlint/sendlint/internal/sarif"
)

func analyze(t *testing.T, files ...string) *Analysis {
	t.Helper()
	bl := testBuildList(t)
	var dumps []*Dump
	for _, f := range files {
		dumps = append(dumps, readFixture(t, f))
	}
	a, err := Analyze(dumps, NewMapper(bl, nil))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// groupAt finds the group at hub.go's line.
func groupAt(t *testing.T, groups []*Group, line int) *Group {
	t.Helper()
	for _, g := range groups {
		if filepath.Base(g.Site.File) == "hub.go" && g.Site.Line == line {
			return g
		}
	}
	t.Fatalf("no group at hub.go:%d", line)
	return nil
}

func TestAnalyzeGroups(t *testing.T) {
	for _, file := range []string{"debug2.txt", "debug1.txt", "trimpath.txt", "sigquit.txt", "leak1.txt", "leak2.txt"} {
		t.Run(file, func(t *testing.T) {
			a := analyze(t, file)
			for _, want := range []struct {
				line  int
				state string
				kind  Kind
				count int
			}{
				{35, "chan send", Send, 8},
				{57, "sync.Mutex.Lock", Mutex, 3},
				{40, "select", Select, 2},
				{64, "sync.RWMutex.RLock", RWMutex, 2},
				{27, "chan send", Send, 1},
			} {
				g := groupAt(t, a.Groups, want.line)
				if g.State != want.state || g.Kind != want.kind || g.Count != want.count {
					t.Errorf("hub.go:%d: %d in %q (kind %d), want %d in %q", want.line, g.Count, g.State, g.Kind, want.count, want.state)
				}
			}
			if !groupAt(t, a.Groups, 40).SelectSends || groupAt(t, a.Groups, 35).SelectSends {
				t.Error("only Offer's select has a send case")
			}
			if a.Groups[0].Count != 8 {
				t.Errorf("groups not most goroutines first: %d first", a.Groups[0].Count)
			}
			// The listener's goroutine in package main is in IO wait, which
			// the leak profile does not count as leaked.
			want := ". ./hub"
			if file == "leak1.txt" {
				want = "./hub"
			}
			if got := strings.Join(a.Packages, " "); got != want {
				t.Errorf("packages %q, want %q", got, want)
			}
		})
	}
}

func TestAnalyzeTrend(t *testing.T) {
	a := analyze(t, "interval1.txt", "interval2.txt")
	wedged := groupAt(t, a.Groups, 35).Trend
	if wedged == nil || wedged.Verdict != Wedged || wedged.Waited != 8 || wedged.Elapsed != 1 {
		t.Errorf("publishers: %+v, want all 8 wedged across a minute", wedged)
	}
	moving := groupAt(t, a.Groups, 89).Trend
	if moving == nil || moving.Verdict != Moving || moving.First != 4 || moving.Waited != 0 {
		t.Errorf("slow producers: %+v, want moving", moving)
	}
	// The same dump twice: no time passed, nothing can be told.
	same := groupAt(t, analyze(t, "debug2.txt", "debug2.txt").Groups, 35).Trend
	if same.Verdict != Unclear {
		t.Errorf("a dump against itself: %+v, want unclear", same)
	}
	if d1 := groupAt(t, analyze(t, "debug1.txt", "debug1.txt").Groups, 35).Trend; d1.Verdict != Unclear {
		t.Errorf("debug=1 dumps have no ids: %+v, want unclear", d1)
	}
}

func TestAnalyzeOtherProgram(t *testing.T) {
	d, err := Parse("other.txt", []byte(`goroutine 1 [chan send, 12 minutes]:
github.com/other/srv.(*S).reply(...)
	/build/srv/s.go:10 +0x1
created by main.main in goroutine 1
	/build/srv/main.go:5 +0x2
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Analyze([]*Dump{d}, NewMapper(testBuildList(t), nil))
	if err == nil || !strings.HasPrefix(err.Error(), "other.txt: no goroutine runs code of module example.com/dumpgen") {
		t.Errorf("error %v", err)
	}
}

// hubFindings are what sendlint reports on the hub, with the publisher's
// send as an audit finding.
func hubFindings(t *testing.T) []finding.Finding {
	hub := filepath.Join(testBuildList(t).Main.Dir, "hub", "hub.go")
	pos := func(line, col int) finding.Position { return finding.Position{File: hub, Line: line, Col: col} }
	return []finding.Finding{
		{Pass: "baresend", Message: "send on c (chan string) can block forever", Pos: pos(27, 6)},
		{Pass: "lockedsend", Message: "send on c can block while h.mu is held", Pos: pos(27, 6),
			Related: []finding.Related{{Pos: pos(25, 12), Message: "h.mu locked here"}}},
		{Pass: "baresend", Message: "send on h.queue (chan string, cap 2) can block forever", Pos: pos(35, 10), Audit: true},
	}
}

func entryAt(t *testing.T, r *Report, line int) *Entry {
	t.Helper()
	for _, e := range r.Entries {
		if filepath.Base(e.Group.Site.File) == "hub.go" && e.Group.Site.Line == line {
			return e
		}
	}
	t.Fatalf("no entry at hub.go:%d", line)
	return nil
}

func TestJoin(t *testing.T) {
	r := Join(analyze(t, "debug2.txt"), hubFindings(t))
	run := entryAt(t, r, 27)
	if run.Kind != Confirmed || len(run.Findings) != 2 || run.Promoted() {
		t.Errorf("Run's send: %+v, want confirmed by two findings", run)
	}
	pub := entryAt(t, r, 35)
	if pub.Kind != Confirmed || !pub.Promoted() {
		t.Errorf("Publish's send: %+v, want the audit finding promoted", pub)
	}
	count := entryAt(t, r, 57)
	if count.Kind != LockWait || len(count.Holders) != 1 || count.Holders[0].Pass != "lockedsend" || count.Match != "same lock name" {
		t.Errorf("Count's lock wait: %+v, want held by the lockedsend finding", count)
	}
	report := entryAt(t, r, 64)
	if report.Kind != LockWait || len(report.Holders) != 0 {
		t.Errorf("Report's RLock (h.stats): %+v, want no holder", report)
	}
	offer := entryAt(t, r, 40)
	if offer.Kind != Unexplained {
		t.Errorf("Offer's select: %+v, want unexplained", offer)
	}
	if !r.Wedged() {
		t.Error("a dump with confirmed sends is wedged")
	}
	for _, g := range r.Other {
		if g.Kind == Send || g.SelectSends {
			t.Errorf("a send among the other waits: %+v", g)
		}
	}
}

func TestJoinSameLockCall(t *testing.T) {
	fs := hubFindings(t)
	// A finding whose lock is taken on the line the waiters wait at.
	fs[1].Related[0].Pos.Line = 57
	fs[1].Related[0].Message = "x.other locked here"
	e := entryAt(t, Join(analyze(t, "debug2.txt"), fs), 57)
	if len(e.Holders) != 1 || e.Match != "same Lock call" {
		t.Errorf("%+v, want held through the same Lock call", e)
	}
}

func TestJoinUnexplained(t *testing.T) {
	r := Join(analyze(t, "debug2.txt"), nil)
	if e := entryAt(t, r, 35); e.Kind != Unexplained {
		t.Errorf("Publish's send without a finding: %+v", e)
	}
	if e := entryAt(t, r, 57); e.Kind != LockWait || len(e.Holders) != 0 {
		t.Errorf("Count's lock wait without findings: %+v", e)
	}
	if !r.Wedged() {
		t.Error("unexplained sends make the report wedged")
	}
}

// TestJoinNoBlockedSends: goroutines that only wait to receive are not a
// wedge.
func TestJoinNoBlockedSends(t *testing.T) {
	hub := filepath.Join(testBuildList(t).Main.Dir, "hub", "hub.go")
	d, err := Parse("idle.txt", []byte("goroutine 7 [chan receive, 30 minutes]:\n"+
		"example.com/dumpgen/hub.(*Slow).Consume(...)\n\t"+hub+":84\n"+
		"created by main.main in goroutine 1\n\t/build/dumpgen/main.go:30 +0x1\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze([]*Dump{d}, NewMapper(testBuildList(t), nil))
	if err != nil {
		t.Fatal(err)
	}
	r := Join(a, hubFindings(t))
	if r.Wedged() || len(r.Entries) != 0 || len(r.Other) != 1 || r.Other[0].Longest != 30 {
		t.Errorf("entries %v, other %v: want one receive among the other waits", r.Entries, r.Other)
	}
}

func TestJoinMovingQueue(t *testing.T) {
	r := Join(analyze(t, "interval1.txt", "interval2.txt"), nil)
	if e := entryAt(t, r, 89); e.Group.Trend.Verdict != Moving {
		t.Errorf("slow producers %+v", e.Group.Trend)
	}
	// The hub's publishers are still wedged, so the report is.
	if !r.Wedged() {
		t.Error("want wedged")
	}
}

func TestOutputs(t *testing.T) {
	r := Join(analyze(t, "debug2.txt"), hubFindings(t))
	root := testBuildList(t).Main.Dir
	var text bytes.Buffer
	r.Text(&text, root)
	for _, want := range []string{
		"confirmed audit finding, promoted by the dump: 8 goroutines [chan send] at hub/hub.go:35 in hub.(*Hub).Publish\n\thub/hub.go:35:10: send on h.queue (chan string, cap 2) can block forever (baresend, audit, promoted by the dump)\n",
		"lock: 3 goroutines [sync.Mutex.Lock] at hub/hub.go:57 in hub.(*Hub).Count want the lock this finding holds across a send (same lock name):\n\thub/hub.go:27:6: send on c can block while h.mu is held (lockedsend)\n\t\thub/hub.go:25:12: h.mu locked here\n",
		"unexplained: 2 goroutines [select] at hub/hub.go:40 in hub.(*Hub).Offer: parked on a select with a send case, and no finding is here\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks\n%s\ngot:\n%s", want, text.String())
		}
	}

	var js bytes.Buffer
	if err := r.JSON(&js, root); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Entries []struct {
			Kind       string `json:"kind"`
			Position   string `json:"position"`
			Goroutines int    `json:"goroutines"`
			Promoted   bool   `json:"promoted"`
			Findings   []struct {
				Category string `json:"category"`
			} `json:"findings"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if e := out.Entries[0]; e.Kind != "confirmed" || e.Position != "hub/hub.go:35" || e.Goroutines != 8 || !e.Promoted || e.Findings[0].Category != "audit" {
		t.Errorf("first JSON entry %+v", e)
	}

	log := r.SARIF(sarif.Input{ToolName: "sendlint", Root: root})
	var unexplained, confirmed int
	for _, res := range log.Runs[0].Results {
		switch res.Properties["triage"] {
		case "unexplained":
			unexplained++
		case "confirmed", "confirmed audit finding, promoted by the dump":
			confirmed++
			if res.Properties["goroutines"] == nil || res.Properties["longestWaitMinutes"] == nil || res.Properties["state"] != "chan send" {
				t.Errorf("confirmed result without its evidence: %v", res.Properties)
			}
		}
	}
	if unexplained != 1 || confirmed != 3 {
		t.Errorf("%d unexplained and %d confirmed results, want 1 and 3", unexplained, confirmed)
	}
}
