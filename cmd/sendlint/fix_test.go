package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixDiff runs sendlint -fix -diff the way a user does: it prints the
// select baresend proposes and leaves the file as it was. The send has no
// receiver in view, so it is an audit finding, and its fix is offered under
// -audit.
func TestFixDiff(t *testing.T) {
	file := filepath.Join("testdata", "demo", "livefix", "livefix.go")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, _ := run(t, sendlint, "-audit", "-fix", "-diff", "./livefix")
	for _, want := range []string{
		"-\tc.responses <- r\n",
		"+\tselect {\n+\tcase c.responses <- r:\n+\tcase <-ctx.Done():\n+\t\treturn ctx.Err()\n+\t}\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-fix -diff output lacks %q:\n%s\nstderr:\n%s", want, stdout, stderr)
		}
	}
	if strings.Contains(stdout, "default") {
		t.Errorf("the fix proposes a default:\n%s", stdout)
	}
	after, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("-diff changed %s", file)
	}
}

// TestHelpSilentdrop checks that the documentation names the accepted ways
// to make a drop visible.
func TestHelpSilentdrop(t *testing.T) {
	stdout, _, code := run(t, sendlint, "help", "silentdrop")
	if code != 0 {
		t.Fatalf("help silentdrop: exit %d", code)
	}
	for _, want := range []string{"WRONG", "RIGHT", "Refuse:", "Fail fast:", "Best effort with a log:", "// reported", "//sendlint:ignore silentdrop"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help silentdrop lacks %q", want)
		}
	}
}
