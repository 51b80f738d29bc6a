package golangci

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The end-to-end test builds golangci-lint v2.15.0 with this plugin linked
// in, from the nested module testdata/customgcl (a main that imports
// golangci-lint's pkg/commands and this package, which is what
// `golangci-lint custom` generates), and runs it the way a user does.
//
// Building it takes about 25 s with a warm build cache and 3 minutes with
// an empty one, so .ci/run builds it once and hands it over in
// $SENDLINT_CUSTOM_GCL; `go test -short` skips the test.

// customGCL returns the path of the custom golangci-lint.
func customGCL(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("SENDLINT_CUSTOM_GCL"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "custom-gcl")
	start := time.Now()
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("testdata", "customgcl")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building golangci-lint with the plugin: %v\n%s", err, out)
	}
	t.Logf("built %s in %v", bin, time.Since(start).Round(time.Second))
	return bin
}

// gcl runs the custom golangci-lint in dir with a fresh cache.
func gcl(t *testing.T, bin, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return out.String(), errOut.String(), code
}

// issue is one issue of golangci-lint's JSON output.
type issue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
}

// lint runs `run` with JSON output in dir and returns the issues and the
// exit code.
func lint(t *testing.T, bin, dir string, args ...string) ([]issue, int) {
	t.Helper()
	args = append([]string{"run", "--output.json.path=stdout", "--output.text.path=stderr"}, args...)
	stdout, stderr, code := gcl(t, bin, dir, append(args, "./...")...)
	var report struct{ Issues []issue }
	// The JSON report is followed by the text summary.
	if err := json.NewDecoder(strings.NewReader(stdout)).Decode(&report); err != nil {
		t.Fatalf("golangci-lint %v printed no JSON report (exit %d): %v\nstdout:\n%s\nstderr:\n%s", args, code, err, stdout, stderr)
	}
	return report.Issues, code
}

func TestCustomGolangciLint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint")
	}
	checkVersions(t)
	bin := customGCL(t)
	fixture := filepath.Join("testdata", "fixture")

	t.Run("version is salted with the executable", func(t *testing.T) {
		stdout, stderr, code := gcl(t, bin, fixture, "version")
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		want := "has version 2.15.0-sendlint-" + hex.EncodeToString(sum[:])[:12] + " "
		if code != 0 || !strings.Contains(stdout+stderr, want) {
			t.Errorf("version: exit %d, output %q, want it to contain %q", code, stdout+stderr, want)
		}
	})

	t.Run("findings and suppression", func(t *testing.T) {
		issues, code := lint(t, bin, fixture)
		if code != 1 {
			t.Errorf("exit %d, want 1 (issues found)", code)
		}
		want := []issue{{FromLinter: "sendlint", Text: "baresend: send on c.responses (chan string, cap 8) can block forever: its receiver (*Client).Serve can stop receiving, and no liveness case (ctx.Done(), a stop channel) lets it give up [replies.go:16: channel made here (cap 8); replies.go:50: its receiver (*Client).Serve can stop waiting here; replies.go:52: it returns for good once this case fires]"}}
		want[0].Pos.Filename, want[0].Pos.Line, want[0].Pos.Column = "replies/replies.go", 21, 14
		if !slices.Equal(issues, want) {
			t.Errorf("issues:\n%s\nwant only Reply's send (Notify has //nolint:sendlint, Announce //sendlint:ignore):\n%s", show(issues), show(want))
		}
	})

	t.Run("nolint is what hides Notify", func(t *testing.T) {
		dir := t.TempDir()
		copyTree(t, fixture, dir)
		file := filepath.Join(dir, "replies", "replies.go")
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		edited := bytes.Replace(src, []byte("//nolint:sendlint // the notifier outlives every client"), nil, 1)
		if bytes.Equal(edited, src) {
			t.Fatal("the fixture has no //nolint:sendlint to remove")
		}
		if err := os.WriteFile(file, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		issues, _ := lint(t, bin, dir)
		var lines []int
		for _, is := range issues {
			lines = append(lines, is.Pos.Line)
		}
		if !slices.Equal(lines, []int{21, 26}) {
			t.Errorf("without //nolint: issues on lines %v, want [21 26]:\n%s", lines, show(issues))
		}
	})

	t.Run("settings are strict", func(t *testing.T) {
		dir := t.TempDir()
		copyTree(t, fixture, dir)
		config := filepath.Join(dir, ".golangci.yml")
		data, err := os.ReadFile(config)
		if err != nil {
			t.Fatal(err)
		}
		bad := strings.Replace(string(data), "enable: [baresend]", "enable: [baresend]\n          baresend:\n            nosuchflag: 1", 1)
		if bad == string(data) {
			t.Fatal("the fixture's config has no settings to extend")
		}
		if err := os.WriteFile(config, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := gcl(t, bin, dir, "run", "./...")
		if code != 3 || !strings.Contains(stderr, "sendlint settings: baresend.nosuchflag: unknown flag (baresend has flags audit, tests)") {
			t.Errorf("unknown flag: exit %d, stderr:\n%s", code, stderr)
		}
	})

	t.Run("same findings as sendlint on the router", func(t *testing.T) {
		router, err := filepath.Abs(filepath.Join("..", "testdata", "src", "router"))
		if err != nil {
			t.Fatal(err)
		}
		config, err := filepath.Abs(filepath.Join(fixture, ".golangci.yml"))
		if err != nil {
			t.Fatal(err)
		}
		issues, _ := lint(t, bin, router, "--config="+config)
		var got []string
		for _, is := range issues {
			// Paths are relative to the directory of the configuration.
			file, err := filepath.Rel(router, filepath.Join(filepath.Dir(config), is.Pos.Filename))
			if err != nil {
				t.Fatal(err)
			}
			text, _, _ := strings.Cut(strings.TrimPrefix(is.Text, "baresend: "), " [")
			got = append(got, fmt.Sprintf("%s:%d:%d: %s", file, is.Pos.Line, is.Pos.Column, text))
		}
		want := sendlintFindings(t, router)
		slices.Sort(got)
		slices.Sort(want)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("golangci-lint found\n%s\nsendlint found\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		t.Logf("golangci-lint and sendlint agree on %d findings", len(got))
	})
}

// sendlintFindings runs the sendlint command on dir and returns its
// findings as "file:line:col: message".
func sendlintFindings(t *testing.T, dir string) []string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sendlint")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/sendlint").CombinedOutput(); err != nil {
		t.Fatalf("building sendlint: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-baresend", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 3 {
		t.Fatalf("sendlint on %s: %v, want exit 3", dir, err)
	}
	var findings []string
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		if !strings.HasPrefix(line, "\t") {
			findings = append(findings, strings.TrimSuffix(line, " (baresend)"))
		}
	}
	return findings
}

// checkVersions checks that golangci-lint v2.15.0 builds with the versions
// of x/tools and staticcheck that sendlint's go.mod pins: the build of a
// custom golangci-lint selects one version of each for every linter.
func checkVersions(t *testing.T) {
	t.Helper()
	list := func(dir string, mods ...string) string {
		cmd := exec.Command("go", append([]string{"list", "-m", "-f", "{{.Path}} {{.Version}}"}, mods...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -m in %s: %v", dir, err)
		}
		return strings.TrimSpace(string(out))
	}
	pins := []string{"golang.org/x/tools", "honnef.co/go/tools"}
	ours := list("..", pins...)
	theirs := list(filepath.Join("testdata", "customgcl"), pins...)
	if ours != theirs {
		t.Errorf("sendlint pins\n%s\nbut golangci-lint's build selects\n%s", ours, theirs)
	}
	if v := list(filepath.Join("testdata", "customgcl"), "github.com/golangci/golangci-lint/v2"); v != "github.com/golangci/golangci-lint/v2 v2.15.0" {
		t.Errorf("golangci-lint version %q, want v2.15.0", v)
	}
}

func show(issues []issue) string {
	var b strings.Builder
	for _, is := range issues {
		fmt.Fprintf(&b, "\t%s:%d:%d: %s (%s)\n", is.Pos.Filename, is.Pos.Line, is.Pos.Column, is.Text, is.FromLinter)
	}
	return b.String()
}

// copyTree copies the regular files below src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
