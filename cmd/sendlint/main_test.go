package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The tests build the sendlint binary once and run it the way a user does,
// on the small module in testdata/demo.

var sendlint string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sendlint-e2e")
	if err != nil {
		panic(err)
	}
	sendlint = filepath.Join(dir, "sendlint")
	if out, err := exec.Command("go", "build", "-o", sendlint, ".").CombinedOutput(); err != nil {
		panic("building sendlint: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	os.Exit(code)
}

// run runs a command in testdata/demo and returns its stdout, stderr and
// exit code.
func run(t *testing.T, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = filepath.Join("testdata", "demo")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return out.String(), errOut.String(), code
}

const replyFinding = "replies/replies.go:20:14: send on c.responses (chan string, cap 8) can block forever: its receiver (*Client).Serve can stop receiving, and no liveness case (ctx.Done(), a stop channel) lets it give up (baresend)"

func TestTextFindings(t *testing.T) {
	stdout, stderr, code := run(t, sendlint, "./replies")
	if code != 3 {
		t.Fatalf("exit code %d, want 3; stderr:\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	want := []string{
		replyFinding,
		"\treplies/replies.go:15:32: channel made here (cap 8)",
		"\treplies/replies.go:38:15: its receiver (*Client).Serve can stop waiting here",
		"\treplies/replies.go:40:8: it returns for good once this case fires",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("output:\n%s\nwant:\n%s", stdout, strings.Join(want, "\n"))
	}
}

func TestDeterministic(t *testing.T) {
	first, _, _ := run(t, sendlint, "./...")
	second, _, _ := run(t, sendlint, "./...")
	if first != second {
		t.Errorf("two runs differ:\n%s\n---\n%s", first, second)
	}
}

// TestTestCode checks that findings in test files appear only with -test.
func TestTestCode(t *testing.T) {
	const inTest = "replies/replies_test.go:10:14: send on c.responses (chan string, cap 8) can block forever"
	stdout, _, code := run(t, sendlint, "./replies")
	if code != 3 || strings.Contains(stdout, "_test.go") || !strings.Contains(stdout, replyFinding) {
		t.Errorf("by default: exit %d, output:\n%s", code, stdout)
	}
	stdout, _, code = run(t, sendlint, "-test", "./replies")
	if code != 3 || !strings.Contains(stdout, inTest) || !strings.Contains(stdout, replyFinding) {
		t.Errorf("-test: exit %d, output:\n%s", code, stdout)
	}
}

// TestTestOnlyHelper checks that a function in a shipped file that only
// the package's tests call, directly or from a suite a test file declares
// as a variable, is test code: reported with -test only, while a function
// nothing calls is reported by default.
func TestTestOnlyHelper(t *testing.T) {
	const helper = "probes/probes.go:11:22: send on answers (chan string, unbuffered) can block forever: askOnce can return without receiving it (baresend)"
	const dead = "probes/probes.go:24:22: send on answers (chan string, unbuffered) can block forever: askUnused can return without receiving it (baresend)"
	const suite = "askInSuite can return without receiving it"
	stdout, _, code := run(t, sendlint, "./probes")
	if code != 3 || strings.Contains(stdout, helper) || strings.Contains(stdout, suite) || !strings.Contains(stdout, dead) {
		t.Errorf("by default: exit %d, output:\n%s", code, stdout)
	}
	stdout, _, code = run(t, sendlint, "-test", "./probes")
	if code != 3 || !strings.Contains(stdout, helper) || !strings.Contains(stdout, suite) || !strings.Contains(stdout, dead) {
		t.Errorf("-test: exit %d, output:\n%s", code, stdout)
	}
}

func TestClean(t *testing.T) {
	stdout, stderr, code := run(t, sendlint, "./clean")
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("clean package: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestPassDisabled(t *testing.T) {
	stdout, _, code := run(t, sendlint, "-baresend=false", "./replies")
	if code != 0 || stdout != "" {
		t.Errorf("-baresend=false: exit %d, output %q", code, stdout)
	}
	_, _, code = run(t, sendlint, "-baresend", "./replies")
	if code != 3 {
		t.Errorf("-baresend: exit %d, want 3", code)
	}
}

func TestJSON(t *testing.T) {
	stdout, stderr, code := run(t, sendlint, "-json", "-test", "./replies")
	if code != 0 {
		t.Fatalf("-json exits %d, want 0 as go vet does; stderr:\n%s", code, stderr)
	}
	var tree map[string]map[string][]struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
		Related []struct {
			Posn    string `json:"posn"`
			Message string `json:"message"`
		} `json:"related"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("-json output is not one JSON object: %v\n%s", err, stdout)
	}
	diags := tree["example.com/demo/replies"]["baresend"]
	if len(diags) != 2 {
		t.Fatalf("got %d baresend diagnostics, want 2:\n%s", len(diags), stdout)
	}
	if !strings.HasSuffix(diags[0].Posn, "replies/replies.go:20:14") || len(diags[0].Related) != 3 {
		t.Errorf("first diagnostic = %+v", diags[0])
	}
	_, _, code = run(t, sendlint, "-format=json", "./replies")
	if code != 3 {
		t.Errorf("-format=json exits %d, want 3", code)
	}
}

func TestVetTool(t *testing.T) {
	_, stderr, code := run(t, "go", "vet", "-vettool="+sendlint, "-baresend.tests", "./replies")
	if code == 0 {
		t.Fatalf("go vet found nothing; stderr:\n%s", stderr)
	}
	for _, want := range []string{
		"replies/replies.go:20:14: send on c.responses (chan string, cap 8) can block forever",
		"replies/replies_test.go:10:14: send on c.responses",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("go vet output lacks %q:\n%s", want, stderr)
		}
	}
	_, stderr, code = run(t, "go", "vet", "-vettool="+sendlint, "-baresend=false", "./replies")
	if code != 0 {
		t.Errorf("go vet -baresend=false: exit %d\n%s", code, stderr)
	}
}

func TestHelp(t *testing.T) {
	stdout, _, code := run(t, sendlint, "help")
	if code != 0 || !strings.Contains(stdout, "baresend") {
		t.Errorf("help: exit %d\n%s", code, stdout)
	}
	stdout, _, code = run(t, sendlint, "help", "baresend")
	for _, want := range []string{"WRONG", "RIGHT", "tr.responses <- resp // reported", "//sendlint:ignore baresend"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help baresend lacks %q", want)
		}
	}
	if code != 0 {
		t.Errorf("help baresend: exit %d", code)
	}
	_, stderr, code := run(t, sendlint, "help", "nosuchpass")
	if code != 2 || strings.Count(stderr, "\n") != 1 {
		t.Errorf("help nosuchpass: exit %d, stderr %q", code, stderr)
	}
}

// oneLineError checks that a failure is one line on stderr with the exit
// code and the words a user needs.
func oneLineError(t *testing.T, args []string, wantCode int, words ...string) {
	t.Helper()
	stdout, stderr, code := run(t, sendlint, args...)
	if code != wantCode {
		t.Errorf("%v: exit %d, want %d; stderr:\n%s", args, code, wantCode, stderr)
	}
	if stdout != "" || strings.Count(stderr, "\n") != 1 {
		t.Errorf("%v: want one line on stderr, got stdout %q stderr %q", args, stdout, stderr)
	}
	for _, w := range words {
		if !strings.Contains(stderr, w) {
			t.Errorf("%v: stderr %q lacks %q", args, stderr, w)
		}
	}
}

func TestBadFlag(t *testing.T) {
	oneLineError(t, []string{"-nosuchflag", "./..."}, 2, "-nosuchflag")
	oneLineError(t, []string{"-format=xml", "./..."}, 2, "-format", "xml")
	oneLineError(t, []string{"-baresend=maybe", "./..."}, 2, "baresend")
}

func TestTypeError(t *testing.T) {
	oneLineError(t, []string{"./broken"}, 1, "example.com/demo/broken", "undefinedName")
}

func TestMissingPackage(t *testing.T) {
	oneLineError(t, []string{"./nosuchdir"}, 1, "nosuchdir")
}

func TestMalformedDirective(t *testing.T) {
	oneLineError(t, []string{"./directive"}, 1, "directive.go:5:2", "missing reason")
}

// TestLanguageFeatures checks findings in generic code, in the bodies of
// range-over-func loops, and in a cgo package. The sends on fields have no
// receiver in view: they are in the audit tier, shown with -audit.
func TestLanguageFeatures(t *testing.T) {
	const (
		cgoSend     = "cgocall/cgocall.go:14:11: send on n.events (chan int) can block forever: no liveness case (ctx.Done(), a stop channel) lets it give up [audit: no receiver of it is visible in this package] (baresend)"
		genericSend = "generic/generic.go:14:8: send on r.out (chan T, cap 4) can block forever"
		leaked      = "generic/generic.go:21:18: send on ch (chan T, unbuffered) can block forever: First can return before receiving every value (baresend)"
		iterSend    = "iterate/iterate.go:24:9: send on s.out (chan int) can block forever"
	)
	packages := []string{"./generic", "./iterate", "./cgocall"}
	stdout, stderr, code := run(t, sendlint, append([]string{"-audit"}, packages...)...)
	if code != 3 {
		t.Fatalf("exit %d, want 3; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{cgoSend, genericSend, leaked, iterSend} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-audit: output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, code = run(t, sendlint, packages...)
	if code != 3 || !strings.Contains(stdout, leaked) || strings.Contains(stdout, "[audit:") {
		t.Errorf("by default: exit %d, want 3 and only the leaked sender:\n%s", code, stdout)
	}
}

// TestBuildTags checks that -tags selects the files analysed.
func TestBuildTags(t *testing.T) {
	stdout, _, code := run(t, sendlint, "./tagged")
	if code != 0 || stdout != "" {
		t.Errorf("without the tag: exit %d, output %q", code, stdout)
	}
	stdout, _, code = run(t, sendlint, "-audit", "-tags=special", "./tagged")
	if code != 3 || !strings.Contains(stdout, "tagged/tagged.go:11:5: send on c (chan string) can block forever") {
		t.Errorf("with -tags=special: exit %d, output %q", code, stdout)
	}
}

func TestEmptyModule(t *testing.T) {
	cmd := exec.Command(sendlint, "./...")
	cmd.Dir = filepath.Join("testdata", "empty")
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 1 {
		t.Fatalf("empty module: %v, want exit 1", err)
	}
	if got := string(out); strings.Count(got, "\n") != 1 || !strings.Contains(got, "matched no packages") {
		t.Errorf("empty module: output %q, want one line saying no packages matched", got)
	}
}

// go vet caches a package's output without saying whether the run was
// facts-only, and replays it to the other kind of run. A package analysed
// first as a dependency must still report its findings when asked for,
// and a package asked for first must not report them again inside its
// importer's run.
func TestDependencyCache(t *testing.T) {
	const inGeneric = "generic/generic.go:21:18: send on ch (chan T, unbuffered) can block forever"
	for _, order := range [][]string{{"./fastest", "./generic"}, {"./generic", "./fastest"}} {
		t.Setenv("GOCACHE", t.TempDir())
		for _, pkg := range order {
			stdout, stderr, code := run(t, sendlint, pkg)
			want, wantCode := pkg == "./generic", map[bool]int{false: 0, true: 3}[pkg == "./generic"]
			if got := strings.Contains(stdout, inGeneric); got != want || code != wantCode {
				t.Errorf("sendlint %s after %s: exit %d (want %d), finding in generic reported: %v, want %v\nstdout:\n%s\nstderr:\n%s",
					pkg, order[0], code, wantCode, got, want, stdout, stderr)
			}
		}
	}
}
