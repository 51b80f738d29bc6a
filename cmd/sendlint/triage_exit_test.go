package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The fixture dumps of internal/triage are of its dumpgen module.
var (
	dumpgen = filepath.Join("..", "..", "internal", "triage", "testdata", "dumpgen")
	dumps   = filepath.Join("..", "..", "internal", "triage", "testdata", "dumps")
)

func triageRun(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(sendlint, append([]string{"triage"}, args...)...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

func TestTriageExitCodes(t *testing.T) {
	idle := filepath.Join(t.TempDir(), "idle.txt")
	abs, err := filepath.Abs(filepath.Join(dumpgen, "hub", "hub.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(idle, []byte("goroutine 7 [chan receive, 30 minutes]:\n"+
		"example.com/dumpgen/hub.(*Slow).Consume(...)\n\t"+abs+":84\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(t.TempDir(), "garbage.txt")
	if err := os.WriteFile(garbage, []byte("not a dump\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"wedged", []string{"-C", dumpgen, filepath.Join(dumps, "debug2.txt")}, 3, ""},
		{"no blocked sends", []string{"-C", dumpgen, idle}, 0, ""},
		{"missing dump", []string{"-C", dumpgen, "nowhere.txt"}, 1, "sendlint triage: open nowhere.txt: no such file or directory\n"},
		{"not a dump", []string{"-C", dumpgen, garbage}, 1, "sendlint triage: " + garbage + ": not a goroutine dump"},
		{"another module", []string{"-C", filepath.Join("testdata", "demo"), filepath.Join(dumps, "debug2.txt")}, 1, "no goroutine runs code of module"},
		{"no dump", []string{"-C", dumpgen}, 2, "sendlint triage: triage needs a goroutine dump"},
		{"bad format", []string{"-format=xml", filepath.Join(dumps, "debug2.txt")}, 2, "invalid value \"xml\" for flag -format"},
		{"bad map", []string{"-map", "nothing", filepath.Join(dumps, "debug2.txt")}, 2, "want from=to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := triageRun(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) || strings.Count(stderr, "\n") > 1 {
				t.Errorf("exit %d, stderr %q; want exit %d, one line holding %q", code, stderr, tc.code, tc.stderr)
			}
		})
	}
}

func TestTriageFormats(t *testing.T) {
	dump := filepath.Join(dumps, "debug2.txt")
	stdout, stderr, code := triageRun(t, "-C", dumpgen, "-format=json", dump)
	var out struct {
		Entries []struct {
			Kind       string `json:"kind"`
			Position   string `json:"position"`
			Goroutines int    `json:"goroutines"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 3 {
		t.Fatalf("json: exit %d, %v; stderr %s", code, err, stderr)
	}
	found := false
	for _, e := range out.Entries {
		found = found || e.Kind == "confirmed" && e.Position == "hub/hub.go:27" && e.Goroutines == 1
	}
	if !found {
		t.Errorf("json lacks the confirmed send at hub/hub.go:27: %s", stdout)
	}

	stdout, stderr, code = triageRun(t, "-C", dumpgen, "-format=sarif", dump)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID     string         `json:"ruleId"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || code != 3 {
		t.Fatalf("sarif: exit %d, %v; stderr %s", code, err, stderr)
	}
	rules := map[string]int{}
	for _, r := range log.Runs[0].Results {
		rules[r.RuleID]++
		if r.Properties["goroutines"] == nil || r.Properties["state"] == nil {
			t.Errorf("result without runtime evidence: %+v", r)
		}
	}
	if rules["baresend"] == 0 || rules["lockedsend"] == 0 || rules["unexplained"] == 0 {
		t.Errorf("sarif results by rule %v, want baresend, lockedsend and unexplained", rules)
	}
}

func TestHelpTriage(t *testing.T) {
	out, err := exec.Command(sendlint, "help", "triage").Output()
	if err != nil || !strings.HasPrefix(string(out), "triage: join findings to the goroutine dumps of a wedged process") ||
		!strings.Contains(string(out), "unexplained") {
		t.Errorf("help triage: %v\n%s", err, out)
	}
}
