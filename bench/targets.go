package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
)

// A target is a set of packages that every tool is run on, named by a go
// list pattern resolved inside bench/mod, whose go.mod pins the versions.
type target struct {
	Name    string
	Pattern string
	Module  string // keep only packages of this module; "" means the standard library
}

var allTargets = []target{
	{"std", "std", ""},
	{"x/tools", "golang.org/x/tools/...", "golang.org/x/tools"},
	{"grpc", "google.golang.org/grpc/...", "google.golang.org/grpc"},
	{"connect", "connectrpc.com/connect/...", "connectrpc.com/connect"},
	{"etcd", "go.etcd.io/etcd/server/v3/...", "go.etcd.io/etcd/server/v3"},
	{"nats", "github.com/nats-io/nats-server/v2/...", "github.com/nats-io/nats-server/v2"},
	{"raft", "github.com/hashicorp/raft/...", "github.com/hashicorp/raft"},
	// tiny is the smoke test's target: no imports, so nothing to compile.
	{"tiny", "./tiny/...", "github.com/sendlint/sendlint/bench/mod"},
}

const defaultTargets = "std,x/tools,grpc,connect,etcd,nats,raft"

func findTarget(name string) (target, error) {
	for _, t := range allTargets {
		if t.Name == name {
			return t, nil
		}
	}
	return target{}, fmt.Errorf("unknown target %q", name)
}

// A resolved target is the explicit package list every tool gets, so that
// all of them analyse exactly the same packages.
type resolved struct {
	Version  string
	Packages []string
	Excluded []excluded // packages, or their tests, that go list cannot load
	Notes    []string   // pattern-level errors: nothing was excluded for them
}

type excluded struct{ Path, Reason string }

// listEntry is the part of go list -json this file reads.
type listEntry struct {
	ImportPath string
	ForTest    string
	Module     *struct{ Path, Version string }
	Error      *struct{ Err string }
	DepsErrors []struct{ Err string }
}

// resolve lists the target's packages with their tests and drops every
// package whose own files, tests or dependencies fail to load: each tool
// would report those differently (or give up on the whole run), which would
// make the comparison about error handling instead of analysis.
func (h *harness) resolve(t target) (resolved, error) {
	var r resolved
	entries, err := h.goList("-e", "-test", "-json=ImportPath,ForTest,Module,Error,DepsErrors", t.Pattern)
	if err != nil {
		return r, err
	}
	bad := map[string]string{}
	var roots []string
	for _, e := range entries {
		if e.Module != nil && e.Module.Path != t.Module || e.Module == nil && t.Module != "" {
			continue // another module matched by the pattern (grpc/examples, say)
		}
		root := rootOf(e)
		if root == e.ImportPath {
			roots = append(roots, root)
		}
		if msg := firstError(e); msg != "" && bad[root] == "" {
			bad[root] = msg
		}
	}
	for _, p := range roots {
		if msg, ok := bad[p]; ok {
			r.Excluded = append(r.Excluded, excluded{p, msg})
		} else {
			r.Packages = append(r.Packages, p)
		}
	}
	r.Notes = patternErrors(entries, roots)
	r.Version, err = h.moduleVersion(t)
	return r, err
}

// rootOf maps the test variants go list -test adds to the package they test:
// "p [p.test]", "p_test [p.test]" and the generated "p.test" all belong to p.
func rootOf(e listEntry) string {
	if i := strings.Index(e.ImportPath, " ["); i > 0 {
		return strings.TrimSuffix(e.ImportPath[i+2:len(e.ImportPath)-1], ".test")
	}
	if e.ForTest != "" {
		return e.ForTest
	}
	return strings.TrimSuffix(e.ImportPath, ".test")
}

func firstError(e listEntry) string {
	msg := ""
	if e.Error != nil {
		msg = e.Error.Err
	} else if len(e.DepsErrors) > 0 {
		msg = e.DepsErrors[0].Err
	}
	first, _, _ := strings.Cut(msg, "\n")
	return first
}

// patternErrors keeps errors go list attaches to the pattern itself rather
// than to a package, such as a nested module it could not check.
func patternErrors(entries []listEntry, roots []string) []string {
	var notes []string
	for _, e := range entries {
		if e.Module == nil && e.Error != nil && !slices.Contains(roots, e.ImportPath) {
			notes = append(notes, firstError(e))
		}
	}
	return notes
}

func (h *harness) moduleVersion(t target) (string, error) {
	if t.Module == "" {
		out, err := h.goOutput("env", "GOVERSION")
		return strings.TrimSpace(out), err
	}
	out, err := h.goOutput("list", "-m", "-f", "{{if .Main}}(bench module){{else}}{{.Version}}{{end}}", t.Module)
	return strings.TrimSpace(out), err
}

// countDeps counts the packages a run on pkgs loads: the packages, their
// test variants and everything they import.
func (h *harness) countDeps(pkgs []string) (int, error) {
	entries, err := h.goList(append([]string{"-e", "-deps", "-test", "-json=ImportPath"}, pkgs...)...)
	return len(entries), err
}

func (h *harness) goList(args ...string) ([]listEntry, error) {
	out, err := h.goOutput(append([]string{"list"}, args...)...)
	if err != nil {
		return nil, err
	}
	var entries []listEntry
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var e listEntry
		if err := dec.Decode(&e); errors.Is(err, io.EOF) {
			return entries, nil
		} else if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
}

// goOutput runs the go command in bench/mod with the environment of the
// measured runs but the module proxy allowed, so that resolving a target
// downloads whatever its packages and tests need before any clock starts.
func (h *harness) goOutput(args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = h.modDir
	cmd.Env = h.env(h.buildCache, "")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out), nil
}
