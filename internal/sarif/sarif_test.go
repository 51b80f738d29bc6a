package sarif

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sendlint/sendlint/internal/finding"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func input() Input {
	root := filepath.FromSlash("/repo")
	at := func(file string, line, col int) finding.Position {
		return finding.Position{File: filepath.Join(root, filepath.FromSlash(file)), Line: line, Col: col}
	}
	return Input{
		ToolName:       "sendlint",
		InformationURI: "https://github.com/sendlint/sendlint",
		Rules: []RuleDoc{
			{ID: "baresend", Title: "report bare sends", Help: "report bare sends\n\nA send blocks.\nForever.\n\nWRONG: ...", Markdown: "**report bare sends**\n", URL: "https://pkg.go.dev/x/baresend"},
			{ID: "lockedsend", Title: "report sends under a lock", Help: "report sends under a lock\n\nWhile holding.", URL: "https://pkg.go.dev/x/lockedsend"},
		},
		Findings: []finding.Finding{
			{
				Pass: "baresend", Package: "example.com/hub", Message: "send on out (chan []int, cap 1) can block forever",
				Pos: at("hub/hub.go", 12, 5), End: at("hub/hub.go", 12, 7),
				Related: []finding.Related{
					{Pos: at("hub/make.go", 3, 9), Message: "channel made here (cap 1)"},
					{Pos: at("hub/hub.go", 20, 2), Message: "receiver started here"},
				},
			},
			{Pass: "lockedsend", Package: "example.com/hub", Message: "send on out while h.mu is held", Pos: at("hub/dir with space/h.go", 4, 2), End: at("hub/dir with space/h.go", 4, 2)},
			{Pass: "newpass", Package: "example.com/gen", Message: "outside the root [audit: no receiver]", Pos: finding.Position{File: filepath.FromSlash("/elsewhere/g.go"), Line: 1, Col: 1}, Audit: true},
		},
		Fingerprints: []string{"f1", "f2", "f3"},
		Errors:       []string{"package example.com/broken: undefined: x"},
		Root:         root,
	}
}

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Build(input()).Write(&buf); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "log.sarif")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("log differs from %s (go test -update rewrites it):\n%s", golden, buf.Bytes())
	}
}

// TestStructure reads the log back as generic JSON and checks what a SARIF
// consumer relies on.
func TestStructure(t *testing.T) {
	var buf bytes.Buffer
	if err := Build(input()).Write(&buf); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct {
						ID               string
						ShortDescription struct{ Text string }
						Help             *struct{ Text, Markdown string }
						HelpURI          string
					}
				}
			}
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct{ Message struct{ Text string } }
			}
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Results            []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
				RelatedLocations []struct {
					ID               int
					PhysicalLocation struct{ ArtifactLocation struct{ URI string } }
					Message          struct{ Text string }
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("version %q, schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	rules := run.Tool.Driver.Rules
	if run.Tool.Driver.Name != "sendlint" || len(rules) != 3 {
		t.Fatalf("driver %q with %d rules, want sendlint with 3", run.Tool.Driver.Name, len(rules))
	}
	if rules[0].Help == nil || !strings.Contains(rules[0].Help.Text, "WRONG") || rules[0].HelpURI == "" {
		t.Errorf("rule baresend lacks its help: %+v", rules[0])
	}
	if len(run.Results) != 3 {
		t.Fatalf("%d results, want 3", len(run.Results))
	}
	for i, r := range run.Results {
		if rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %d: ruleIndex %d names %s, not %s", i, r.RuleIndex, rules[r.RuleIndex].ID, r.RuleID)
		}
		if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.Region.StartLine == 0 {
			t.Errorf("result %d: locations %+v", i, r.Locations)
		}
		if r.PartialFingerprints[FingerprintKey] == "" {
			t.Errorf("result %d: no fingerprint", i)
		}
	}
	if got := [3]string{run.Results[0].Level, run.Results[1].Level, run.Results[2].Level}; got != [3]string{"warning", "warning", "note"} {
		t.Errorf("levels %q: an audit finding is a note, the others warnings", got)
	}
	first := run.Results[0]
	loc := first.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "hub/hub.go" || loc.ArtifactLocation.URIBaseID != SrcRoot || loc.Region != (struct{ StartLine, StartColumn, EndLine, EndColumn int }{12, 5, 12, 7}) {
		t.Errorf("first location %+v", loc)
	}
	if len(first.RelatedLocations) != 2 || first.RelatedLocations[1].ID != 2 || first.RelatedLocations[0].PhysicalLocation.ArtifactLocation.URI != "hub/make.go" {
		t.Errorf("related locations %+v", first.RelatedLocations)
	}
	if want := "send on out (chan \\[\\]int, cap 1) can block forever\n[channel made here (cap 1)](1); [receiver started here](2)"; first.Message.Text != want {
		t.Errorf("message %q, want %q", first.Message.Text, want)
	}
	if got := run.Results[1].Locations[0].PhysicalLocation.ArtifactLocation.URI; got != "hub/dir%20with%20space/h.go" {
		t.Errorf("a path with spaces: uri %q", got)
	}
	if got := run.Results[1].Locations[0].PhysicalLocation.Region; got.EndLine != 0 {
		t.Errorf("an empty extent has an end: %+v", got)
	}
	if got := run.Results[2].Locations[0].PhysicalLocation.ArtifactLocation; got.URIBaseID != "" || !strings.HasPrefix(got.URI, "file:///") {
		t.Errorf("a file outside the root: %+v", got)
	}
	if run.OriginalURIBaseIDs[SrcRoot].URI == "" {
		t.Errorf("no %s base", SrcRoot)
	}
	inv := run.Invocations
	if len(inv) != 1 || inv[0].ExecutionSuccessful || len(inv[0].ToolExecutionNotifications) != 1 {
		t.Errorf("invocations %+v, want one unsuccessful with the error", inv)
	}
}

func TestEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := Build(Input{ToolName: "sendlint"}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	// Consumers want empty arrays, not nulls.
	for _, want := range []string{`"rules": []`, `"results": []`, `"executionSuccessful": true`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("empty log lacks %s:\n%s", want, buf.String())
		}
	}
}
