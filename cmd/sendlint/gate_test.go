package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sendlint/sendlint/passes"
)

// The CI gate: output formats, exit codes and baselines, run on the demo
// module the way a CI job runs them.

// textFindings returns the finding lines of text output, without their
// related lines.
func textFindings(stdout string) (findings, related []string) {
	for line := range strings.SplitSeq(strings.TrimSpace(stdout), "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "\t"):
			related = append(related, line)
		default:
			findings = append(findings, line)
		}
	}
	return findings, related
}

// sarifLog is the part of a SARIF log the tests read.
type sarifLog struct {
	Version string
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string
				Rules []struct {
					ID               string
					ShortDescription struct{ Text string }
					Help             struct{ Text, Markdown string }
					HelpURI          string
				}
			}
		}
		Results []struct {
			RuleID    string
			RuleIndex int
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Region           struct{ StartLine, StartColumn int }
				}
			}
			RelatedLocations []struct {
				ID      int
				Message struct{ Text string }
			}
			PartialFingerprints map[string]string
		}
	}
}

func parseSARIF(t *testing.T, data string) *sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal([]byte(data), &log); err != nil {
		t.Fatalf("-format=sarif output does not parse: %v\n%s", err, data)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("SARIF version %q with %d runs, want 2.1.0 with 1", log.Version, len(log.Runs))
	}
	return &log
}

func TestSARIF(t *testing.T) {
	text, _, _ := run(t, sendlint, "-test", "./replies", "./clean")
	stdout, stderr, code := run(t, sendlint, "-test", "-format=sarif", "./replies", "./clean")
	if code != 3 {
		t.Fatalf("-format=sarif: exit %d, want 3; stderr:\n%s", code, stderr)
	}
	log := parseSARIF(t, stdout)
	run := log.Runs[0]
	findings, related := textFindings(text)
	if len(run.Results) != len(findings) || len(findings) != 2 {
		t.Errorf("%d SARIF results, %d text findings; want 2 of each\n%s", len(run.Results), len(findings), text)
	}
	nrelated := 0
	for _, r := range run.Results {
		nrelated += len(r.RelatedLocations)
	}
	if nrelated != len(related) {
		t.Errorf("%d related locations in SARIF, %d in text", nrelated, len(related))
	}
	rules := run.Tool.Driver.Rules
	if run.Tool.Driver.Name != "sendlint" || len(rules) != len(passes.All()) {
		t.Fatalf("driver %q with %d rules, want sendlint with one per pass (%d)", run.Tool.Driver.Name, len(rules), len(passes.All()))
	}
	for i, a := range passes.All() {
		r := rules[i]
		if r.ID != a.Name || r.ShortDescription.Text == "" || r.HelpURI == "" {
			t.Errorf("rule %d: %+v", i, r)
		}
		for _, want := range []string{"WRONG", "RIGHT", "//sendlint:ignore " + a.Name, "//nolint:sendlint"} {
			if !strings.Contains(r.Help.Text, want) || !strings.Contains(r.Help.Markdown, want) {
				t.Errorf("rule %s: help lacks %q", r.ID, want)
			}
		}
	}
	first := run.Results[0]
	loc := first.Locations[0].PhysicalLocation
	if first.RuleID != "baresend" || rules[first.RuleIndex].ID != "baresend" ||
		loc.ArtifactLocation.URI != "replies/replies.go" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" ||
		loc.Region.StartLine != 20 || loc.Region.StartColumn != 14 {
		t.Errorf("first result: %+v", first)
	}
	if len(first.RelatedLocations) != 3 || first.RelatedLocations[0].Message.Text != "channel made here (cap 8)" ||
		first.RelatedLocations[1].Message.Text != "its receiver (*Client).Serve can stop waiting here" ||
		first.RelatedLocations[2].Message.Text != "it returns for good once this case fires" {
		t.Errorf("first result's related locations: %+v", first.RelatedLocations)
	}
	if !strings.HasPrefix(first.Message.Text, "send on c.responses (chan string, cap 8) can block forever") {
		t.Errorf("first result's message: %q", first.Message.Text)
	}
	if fp := first.PartialFingerprints["sendlint/v1"]; len(fp) != 20 {
		t.Errorf("first result's fingerprint %q", fp)
	}
}

func TestGitHubAnnotations(t *testing.T) {
	stdout, _, code := run(t, sendlint, "-format=github", "-test=false", "./replies")
	want := "::warning file=replies/replies.go,line=20,col=14,title=sendlint baresend::send on c.responses (chan string, cap 8) can block forever: its receiver (*Client).Serve can stop receiving, and no liveness case (ctx.Done(), a stop channel) lets it give up" +
		"%0Areplies/replies.go:15:32: channel made here (cap 8)%0Areplies/replies.go:38:15: its receiver (*Client).Serve can stop waiting here%0Areplies/replies.go:40:8: it returns for good once this case fires\n"
	if code != 3 || stdout != want {
		t.Errorf("-format=github: exit %d, output\n%s\nwant\n%s", code, stdout, want)
	}
	_, stderr, code := run(t, sendlint, "-format=github", "./broken")
	if code != 1 || !strings.HasPrefix(stderr, "::error title=sendlint::package example.com/demo/broken: ") {
		t.Errorf("-format=github on a broken package: exit %d, stderr %q", code, stderr)
	}
}

// TestExitCodes checks that a CI job can rely on the exit code whatever the
// format: 0 clean, 3 findings, 1 errors; -json alone keeps go vet's 0.
func TestExitCodes(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif", "github"} {
		for pkg, want := range map[string]int{"./clean": 0, "./replies": 3, "./broken": 1} {
			if _, stderr, code := run(t, sendlint, "-format="+format, pkg); code != want {
				t.Errorf("-format=%s %s: exit %d, want %d; stderr:\n%s", format, pkg, code, want, stderr)
			}
		}
	}
	if _, _, code := run(t, sendlint, "-json", "./replies"); code != 0 {
		t.Errorf("-json with findings: exit %d, want 0", code)
	}
}

// demoCopy copies the demo module's go.mod and replies package into a
// fresh directory, where a test may edit them.
func demoCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "replies/replies.go", "replies/replies_test.go"} {
		data, err := os.ReadFile(filepath.Join("testdata", "demo", name))
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runIn runs sendlint in dir.
func runIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(sendlint, args...)
	cmd.Dir = dir
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exitErr, ok := err.(*exec.ExitError); ok {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

func editFile(t *testing.T, path string, edit func(string) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := edit(string(data))
	if edited == string(data) {
		t.Fatalf("edit of %s changed nothing", path)
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBaseline(t *testing.T) {
	dir := demoCopy(t)
	file := filepath.Join(dir, "replies", "replies.go")

	_, stderr, code := runIn(t, dir, "-test", "-write-baseline=baseline.json", "./...")
	if code != 0 || stderr != "sendlint: baseline baseline.json: 2 findings accepted\n" {
		t.Fatalf("-write-baseline: exit %d, stderr %q", code, stderr)
	}
	stdout, stderr, code := runIn(t, dir, "-test", "-baseline=baseline.json", "./...")
	if code != 0 || stdout != "" || stderr != "sendlint: baseline baseline.json: 2 accepted findings hidden\n" {
		t.Fatalf("unchanged code against its baseline: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	// Move every line down, reformat the accepted send, and add a new bare
	// send: only the new one is reported.
	editFile(t, file, func(src string) string {
		src = strings.Replace(src, "import \"context\"\n", "import (\n\t\"context\"\n\t\"fmt\"\n)\n\n// Greeting is sent first.\nvar Greeting = fmt.Sprint(\"hello\")\n", 1)
		src = strings.Replace(src, "\tc.responses <- msg\n}", "\tc.responses  <-  msg // the reply\n}", 1)
		return src + "\n// Broadcast replies to every client.\nfunc Broadcast(cs []*Client, msg string) {\n\tfor _, c := range cs {\n\t\tc.responses <- msg\n\t}\n}\n"
	})
	stdout, stderr, code = runIn(t, dir, "-test", "-baseline=baseline.json", "./...")
	findings, _ := textFindings(stdout)
	newSend := fmt.Sprintf("replies/replies.go:%d:15: send on c.responses", lineOf(t, file, "\t\tc.responses <- msg\n"))
	if code != 3 || len(findings) != 1 || !strings.HasPrefix(findings[0], newSend) {
		t.Errorf("after moving lines and adding a send: exit %d, findings:\n%s\nstderr %q", code, stdout, stderr)
	}
	if stderr != "sendlint: baseline baseline.json: 2 accepted findings hidden\n" {
		t.Errorf("after moving lines: stderr %q", stderr)
	}
	stdout, _, code = runIn(t, dir, "-test", "-baseline=baseline.json", "-format=sarif", "./...")
	if log := parseSARIF(t, stdout); code != 3 || len(log.Runs[0].Results) != 1 {
		t.Errorf("-format=sarif with the baseline: exit %d, %d results, want 3 and 1", code, len(log.Runs[0].Results))
	}

	// Fix the test's send: the baseline says it can shrink.
	editFile(t, filepath.Join(dir, "replies", "replies_test.go"), func(src string) string {
		return strings.Replace(src, "\tc.responses <- \"from a test\"\n", "", 1)
	})
	_, stderr, _ = runIn(t, dir, "-test", "-baseline=baseline.json", "./...")
	want := "sendlint: baseline baseline.json: 1 accepted finding hidden; 1 accepted finding is no longer found (rewrite the baseline with -write-baseline to drop it)\n"
	if stderr != want {
		t.Errorf("after fixing an accepted finding: stderr\n%q\nwant\n%q", stderr, want)
	}
}

// lineOf returns the line number of the first line of file that starts
// with text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), text)
	if i < 0 {
		t.Fatalf("%s has no %q", file, text)
	}
	return strings.Count(string(data[:i]), "\n") + 1
}

func TestBaselineErrors(t *testing.T) {
	oneLineError(t, []string{"-baseline=a.json", "-write-baseline=b.json", "./replies"}, 2, "-baseline", "-write-baseline")
	oneLineError(t, []string{"-baseline=nosuch.json", "./replies"}, 1, "nosuch.json")
	// A run with errors writes no baseline: it would miss the packages
	// that failed.
	out := filepath.Join(t.TempDir(), "b.json")
	_, stderr, code := run(t, sendlint, "-write-baseline="+out, "./replies", "./broken")
	if _, err := os.Stat(out); code != 1 || !os.IsNotExist(err) || !strings.Contains(stderr, "not written") {
		t.Errorf("-write-baseline with a broken package: exit %d, stat %v, stderr %q", code, err, stderr)
	}
}

// TestHelpEveryPass checks that every pass documents what the README
// promises: wrong code, right code, what it does not report, and how to
// suppress it.
func TestHelpEveryPass(t *testing.T) {
	for _, a := range passes.All() {
		stdout, _, code := run(t, sendlint, "help", a.Name)
		if code != 0 {
			t.Errorf("help %s: exit %d", a.Name, code)
		}
		for _, want := range []string{"WRONG", "RIGHT", "not report", "//sendlint:ignore " + a.Name, "//nolint:sendlint", "-baseline"} {
			if !strings.Contains(stdout, want) && !strings.Contains(strings.ToLower(stdout), want) {
				t.Errorf("help %s lacks %q", a.Name, want)
			}
		}
	}
}
