package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseFindings(t *testing.T) {
	// One package and its test variant report the same finding; an audit
	// finding's related position lies in another module; one pass failed.
	stream := `{
	"example.com/m/p": {
		"baresend": [
			{"posn": "/mod/example.com/m@v1.0.0/p/a.go:12:3", "message": "send on c can block forever",
			 "related": [{"posn": "/mod/example.com/m@v1.0.0/p/b.go:4:7", "message": "channel made here"}]},
			{"category": "audit", "posn": "/mod/example.com/m@v1.0.0/p/a.go:20:2", "message": "send on d may block",
			 "related": [{"posn": "/mod/example.com/other@v2.0.0/q.go:1:1", "message": "its receiver"}]}
		],
		"lockedsend": {"error": "boom"}
	},
	"example.com/m/p [example.com/m/p.test]": {
		"baresend": [{"posn": "/mod/example.com/m@v1.0.0/p/a.go:12:3", "message": "send on c can block forever"}]
	}
}
{"example.com/m/r": {"silentdrop": [{"posn": "/elsewhere/r.go:5:6", "message": "drops"}], "singlesender": []}}
`
	got, errs, err := parseFindings(strings.NewReader(stream), "example.com/m", []string{"/mod/example.com/m@v1.0.0", "/mod"})
	if err != nil {
		t.Fatal(err)
	}
	want := []finding{
		{Module: "example.com/m", Pass: "silentdrop", File: "/elsewhere/r.go", Line: 5, Col: 6, Message: "drops"},
		{Module: "example.com/m", Pass: "baresend", File: "p/a.go", Line: 12, Col: 3, Message: "send on c can block forever",
			Related: []related{{"p/b.go:4:7", "channel made here"}}},
		{Module: "example.com/m", Pass: "baresend", File: "p/a.go", Line: 20, Col: 2, Message: "send on d may block", Audit: true,
			Related: []related{{"example.com/other@v2.0.0/q.go:1:1", "its receiver"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n got %+v\nwant %+v", got, want)
	}
	if wantErrs := []string{"package example.com/m/p: lockedsend: boom"}; !slices.Equal(errs, wantErrs) {
		t.Errorf("errors = %q, want %q", errs, wantErrs)
	}
	if counts := countTiers(got); !reflect.DeepEqual(counts, map[string]tally{"baresend": {1, 1}, "silentdrop": {1, 0}}) {
		t.Errorf("countTiers = %v", counts)
	}
	if _, _, err := parseFindings(strings.NewReader(`{"p": {"baresend": [{"posn": 3}]}}`), "m", nil); err == nil {
		t.Error("malformed JSON: no error")
	}
}

// findingsOf makes n default-tier findings of a pass, one per line of a file.
func findingsOf(pass string, n int) []finding {
	var fs []finding
	for i := range n {
		fs = append(fs, finding{Module: "example.com/m", Pass: pass, File: "a.go", Line: i + 1, Col: 2, Message: "m"})
	}
	return fs
}

func TestDrawIsDeterministic(t *testing.T) {
	fs := findingsOf("baresend", 30)
	got := draw(fs, 2026)
	if len(got) != sampleSize {
		t.Fatalf("drew %d of 30, want %d", len(got), sampleSize)
	}
	// The sample depends on the findings and the seed, not on their order.
	reversed := slices.Clone(fs)
	slices.Reverse(reversed)
	if again := draw(reversed, 2026); !reflect.DeepEqual(again, got) {
		t.Errorf("reversed input drew %v, want %v", lines(again), lines(got))
	}
	// The ledger is written against this exact sample: a change to the
	// sort, the generator or the shuffle would silently orphan its rows.
	if want := []int{23, 19, 26, 11, 13, 22, 15, 25, 7, 4}; !slices.Equal(lines(got), want) {
		t.Errorf("seed 2026 drew lines %v, want %v", lines(got), want)
	}
	if other := draw(fs, 2027); reflect.DeepEqual(other, got) {
		t.Error("seeds 2026 and 2027 drew the same sample")
	}
	if !slices.Equal(lines(fs), lines(findingsOf("baresend", 30))) {
		t.Error("draw reordered its argument")
	}
	few := lines(draw(fs[:4], 2026))
	slices.Sort(few)
	if !slices.Equal(few, []int{1, 2, 3, 4}) {
		t.Errorf("drew lines %v of 4, want all 4", few)
	}
}

func lines(fs []finding) []int {
	var out []int
	for _, f := range fs {
		out = append(out, f.Line)
	}
	return out
}

func TestDrawSamples(t *testing.T) {
	bare := findingsOf("baresend", 15)
	audit := findingsOf("silentdrop", 3)
	for i := range audit {
		audit[i].Audit = true
	}
	runs := []targetRun{{Name: "a", Findings: append(slices.Clone(bare[:8]), audit...)}, {Name: "b", Findings: bare[8:]}}
	samples := drawSamples(runs, 7)
	var passes []string
	for _, s := range samples {
		passes = append(passes, fmt.Sprintf("%s %d/%d", s.Pass, len(s.Findings), s.Total))
	}
	// Every pass has a row, audit findings are never drawn, and the pool is
	// all targets together.
	if want := []string{"baresend 10/15", "lockedsend 0/0", "singlesender 0/0", "silentdrop 0/0"}; !slices.Equal(passes, want) {
		t.Errorf("samples = %q, want %q", passes, want)
	}
	// A pass's sample does not move when another pass finds more.
	runs[1].Findings = append(runs[1].Findings, findingsOf("lockedsend", 12)...)
	if again := drawSamples(runs, 7); !reflect.DeepEqual(again[0], samples[0]) {
		t.Errorf("baresend sample moved when lockedsend grew: %v, was %v", lines(again[0].Findings), lines(samples[0].Findings))
	}
}

const ledgerDoc = "# Precision\n\n" +
	"| target | baresend |\n|---|--:|\n| grpc | 3 |\n\n" +
	"| Pass | Where | Message | Verdict | Reason |\n" +
	"|---|---|---|---|---|\n" +
	"| baresend | `example.com/m a.go:3` | `send on c (chan int\\|error)` | Worth fixing | the reader can exit first |\n" +
	"| baresend | example.com/m a.go:4:9 | send on c… | noise | guarded by a \\| pipe |\n" +
	"| baresend | `example.com/m a.go:5` | `m` | | |\n" +
	"| lockedsend | a.go:6 | m | noise | no module |\n" +
	"| lockedsend | `example.com/m a.go:7` | m | maybe | |\n" +
	"| lockedsend | too few |\n" +
	"\nText between tables ends the ledger.\n" +
	"| baresend | example.com/m a.go:8 | m | noise | not in a ledger table |\n" +
	"\n```\n| pass | where | message | verdict | reason |\n|---|---|---|---|---|\n" +
	"| baresend | example.com/m a.go:9 | m | noise | an example in a code block |\n```\n"

func TestParseLedger(t *testing.T) {
	rows, err := parseLedger(strings.NewReader(ledgerDoc))
	if err != nil {
		t.Fatal(err)
	}
	want := []row{
		{Line: 9, Pass: "baresend", Module: "example.com/m", File: "a.go", At: 3, Message: "send on c (chan int|error)",
			Verdict: worthFixing, Reason: "the reader can exit first"},
		{Line: 10, Pass: "baresend", Module: "example.com/m", File: "a.go", At: 4, Col: 9, Message: "send on c",
			Verdict: noise, Reason: "guarded by a | pipe"},
		{Line: 11, Pass: "baresend", Module: "example.com/m", File: "a.go", At: 5, Message: "m"},
		{Line: 12, Pass: "lockedsend", Message: "m", Reason: "no module", malformed: `where "a.go:6" is not "module file:line"`},
		{Line: 13, Pass: "lockedsend", Module: "example.com/m", File: "a.go", At: 7, Message: "m", Verdict: "maybe",
			malformed: `verdict "maybe" is none of ["worth fixing" "worth reading" "noise"]`},
		{Line: 14, malformed: "2 cells, want 5"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows:\n got %+v\nwant %+v", rows, want)
	}
}

func TestCheckLedger(t *testing.T) {
	rows, err := parseLedger(strings.NewReader(ledgerDoc))
	if err != nil {
		t.Fatal(err)
	}
	f := func(line, col int, msg string) finding {
		return finding{Module: "example.com/m", Pass: "baresend", File: "a.go", Line: line, Col: col, Message: msg}
	}
	samples := []passSample{
		{Pass: "baresend", Total: 4, Findings: []finding{
			f(3, 1, "send on c (chan int|error) can block forever"), // prefix match
			f(4, 9, "send on c can block"),                          // column given and equal
			f(5, 1, "m"),                                            // row without a verdict
			f(3, 1, "other message"),                                // place matches, message does not
		}},
		{Pass: "lockedsend"},
	}
	c := checkLedger(rows, samples)
	bare := c.Passes[0]
	if want := map[verdict]int{worthFixing: 1, noise: 1}; !reflect.DeepEqual(bare.Verdicts, want) {
		t.Errorf("verdicts = %v, want %v", bare.Verdicts, want)
	}
	if got := lines(bare.Missing); !slices.Equal(got, []int{5, 3}) || bare.Missing[1].Message != "other message" {
		t.Errorf("missing = %+v, want lines 5 and 3 (other message)", bare.Missing)
	}
	if c.ok() || bare.meetsBar() {
		t.Error("a ledger with missing verdicts and malformed rows passes")
	}
	if got := len(c.Malformed); got != 3 {
		t.Errorf("%d malformed rows, want 3", got)
	}
	if len(c.Unused) != 0 {
		t.Errorf("unused rows %+v, want none", c.Unused)
	}
	// A finding that moved to another column no longer matches row 10.
	if c := checkLedger(rows, []passSample{{Pass: "baresend", Findings: []finding{f(4, 2, "send on c")}}}); len(c.Passes[0].Missing) != 1 || len(c.Unused) != 3 {
		t.Errorf("moved column: missing %d, unused %d; want 1 and 3", len(c.Passes[0].Missing), len(c.Unused))
	}
}

func TestBar(t *testing.T) {
	for _, tc := range []struct {
		fixing, reading, sampled int
		want                     bool
	}{{9, 1, 10, true}, {10, 0, 10, true}, {8, 2, 10, false}, {3, 0, 3, true}, {2, 1, 3, false}} {
		pc := passCheck{Sampled: tc.sampled, Verdicts: map[verdict]int{worthFixing: tc.fixing, worthReading: tc.reading}}
		if got := pc.meetsBar(); got != tc.want {
			t.Errorf("%d worth fixing of %d: meetsBar = %v, want %v", tc.fixing, tc.sampled, got, tc.want)
		}
	}
}

// TestReportRowsParse checks that the rows the report offers to paste are
// ledger rows of exactly the sampled findings, and that a filled-in copy
// passes the check.
func TestReportRowsParse(t *testing.T) {
	fs := findingsOf("lockedsend", 12)
	fs[0].Message = "call to f can block while mu|x is held: f → send on c"
	runs := []targetRun{{Name: "a", Module: "example.com/m", Version: "v1.0.0", Packages: 2, Findings: fs}}
	samples := drawSamples(runs, defaultSeed)
	var report strings.Builder
	writeReport(&report, runs, samples, defaultSeed, nil)
	for _, want := range []string{"| a | example.com/m | v1.0.0 | 2 | 0 | 12 | 0 | 0 |", "### lockedsend: 10 of 12 default-tier findings"} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, report.String())
		}
	}
	rows, err := parseLedger(strings.NewReader(report.String()))
	if err != nil {
		t.Fatal(err)
	}
	c := checkLedger(rows, samples)
	if len(rows) != 10 || len(c.Passes[1].Missing) != 10 || len(c.Unused) != 0 || len(c.Malformed) != 0 {
		t.Fatalf("%d rows, %d missing, %d unused, %d malformed; want 10, 10, 0, 0", len(rows), len(c.Passes[1].Missing), len(c.Unused), len(c.Malformed))
	}
	filled := strings.ReplaceAll(report.String(), "` | | |", "` | worth fixing | read |")
	rows, err = parseLedger(strings.NewReader(filled))
	if err != nil {
		t.Fatal(err)
	}
	if c := checkLedger(rows, samples); !c.ok() || !c.Passes[1].meetsBar() {
		t.Errorf("filled-in rows: ok %v, bar %v; want both", c.ok(), c.Passes[1].meetsBar())
	}
}

func TestProofOf(t *testing.T) {
	for _, tc := range []struct{ message, want string }{
		{"send on c (chan *Error, cap 1) can block forever: its receiver is the caller that handed it to (*Connection).NotifyClose, who can stop reading, and no liveness case (ctx.Done(), a stop channel) lets it give up", "the caller can stop reading"},
		{"send on errCh (chan error) can block forever: (*Client).putObjectMultipartStreamParallel can return without receiving it", "the owner returns without receiving"},
		{"send on in (chan *Message, unbuffered) can block forever: socketHandler can return before receiving every value", "the owner returns without receiving"},
		{"send on wps.watchCh (chan *etcdserverpb.WatchResponse, cap 1024) can block forever: its receiver (*watchProxyStream).sendLoop can stop receiving, and no liveness case (ctx.Done(), a stop channel) lets it give up", "the receiver can stop, buffered"},
		{"send on m.posts (chan string, unbuffered) can block forever: its receiver (*mailbox).loop can stop receiving, and no liveness case", "the receiver can stop, unbuffered"},
		{"send on pc.queueCh (chan []*message, cap options.receiverQueueSize) can block forever: its receiver (*partitionConsumer).dispatcher can stop receiving, and no liveness case", "the receiver can stop, buffered"},
		{"send on c.reqs (chan<- connRequest, unbuffered) can block forever: its receiver (*conn).run can stop receiving", "the receiver can stop, unbuffered"},
		{"send on gs.connect (chan connectInfo, cap 1 or len(peers)) can block forever: its receiver (*GossipSubRouter).connector can stop receiving", "the receiver can stop, buffered"},
		{"send on pc.queueCh (chan []*message) can block forever: its receiver (*partitionConsumer).dispatcher can stop receiving, and no liveness case", "the receiver can stop, capacity not in the message"},
		{"send on wps.watchCh can block forever while wps.mu is held: its receiver (*watchProxyStream).sendLoop can stop receiving, and no liveness case", "the receiver can stop, capacity not in the message"},
		{"send on c.unsubscribeCh (chan []string, cap 1) can block forever: its only receiver, (*regexConsumer).monitor, is the goroutine that makes this send: once the buffer is full nothing can take from it", "the receiver is the sending goroutine"},
		{"stream send stream.Send can block while s.mutex is held: every goroutine that needs s.mutex for writing, and every reader after it, waits for the peer to read", "a stream Send under a lock"},
		{"send on rChan (chan *paho.Publish) drops the *paho.Publish without a trace when the send cannot proceed", "a drop without a trace"},
		{"send on c (chan int) can block forever", "other"},
	} {
		if got := proofOf(tc.message); got != tc.want {
			t.Errorf("proofOf(%.60q…) = %q, want %q", tc.message, got, tc.want)
		}
	}
}

// TestProofWordsInFixtures keeps proofs in step with the passes: each of
// its words is in a message the fixtures under testdata/src expect.
func TestProofWordsInFixtures(t *testing.T) {
	var all strings.Builder
	err := filepath.WalkDir(filepath.Join("..", "..", "testdata", "src"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		b, err := os.ReadFile(path)
		all.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proofs {
		for _, w := range p.words {
			if !strings.Contains(all.String(), w) {
				t.Errorf("proof %q: no fixture expects a message with %q", p.name, w)
			}
		}
	}
}

func TestTallyProofs(t *testing.T) {
	rows, err := parseLedger(strings.NewReader(ledgerDoc))
	if err != nil {
		t.Fatal(err)
	}
	f := func(line int, msg string, audit bool) finding {
		return finding{Module: "example.com/m", Pass: "baresend", File: "a.go", Line: line, Col: 1, Message: msg, Audit: audit}
	}
	runs := []targetRun{{Findings: []finding{
		f(3, "send on c (chan int|error) can block forever: its receiver is the caller X returns it to, who can stop reading", false), // worth fixing
		f(5, "m: its receiver is the caller that handed it to X", false),                                                              // a row without a verdict
		f(6, "send on c (chan int, cap 2) can block forever: its receiver X can stop receiving", false),
		f(7, "send on c (chan int, cap 2) can block forever: its receiver X can stop receiving", true), // audit: not counted
	}}}
	got := tallyProofs(runs, rows)
	want := []proofTally{
		{Pass: "baresend", Proof: "the caller can stop reading", Findings: 2, Verdicts: map[verdict]int{worthFixing: 1}},
		{Pass: "baresend", Proof: "the receiver can stop, buffered", Findings: 1, Verdicts: map[verdict]int{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tallyProofs:\n got %+v\nwant %+v", got, want)
	}
}
