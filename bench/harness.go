package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// A tool is one way of running a linter over an explicit package list.
type tool struct {
	name  string // as given to -tools
	label string // as shown in the report
	bin   string // binary it needs besides go: "sendlint", "staticcheck" or ""
	argv  func(bin map[string]string, pkgs []string) []string
}

var tools = []tool{
	{"sendlint", "sendlint", "sendlint", func(b map[string]string, pkgs []string) []string {
		return append([]string{b["sendlint"]}, pkgs...)
	}},
	{"staticcheck", "staticcheck", "staticcheck", func(b map[string]string, pkgs []string) []string {
		return append([]string{b["staticcheck"]}, pkgs...)
	}},
	{"govet-sendlint", "go vet -vettool=sendlint", "sendlint", func(b map[string]string, pkgs []string) []string {
		return append([]string{"go", "vet", "-vettool=" + b["sendlint"]}, pkgs...)
	}},
	{"govet", "go vet", "", func(_ map[string]string, pkgs []string) []string {
		return append([]string{"go", "vet"}, pkgs...)
	}},
}

func toolNames() []string {
	var names []string
	for _, t := range tools {
		names = append(names, t.name)
	}
	return names
}

func findTool(name string) (tool, error) {
	for _, t := range tools {
		if t.name == name {
			return t, nil
		}
	}
	return tool{}, fmt.Errorf("unknown tool %q (want some of %v)", name, toolNames())
}

type harness struct {
	cfg        config
	modDir     string // bench/mod: the module whose graph holds the targets
	buildCache string
	baseEnv    []string
	tools      []tool
	bin        map[string]string // binary name → absolute path
}

func newHarness(cfg config) (*harness, error) {
	h := &harness{cfg: cfg, modDir: filepath.Join(cfg.root, "bench", "mod"), bin: map[string]string{}}
	for _, name := range cfg.tools {
		t, err := findTool(name)
		if err != nil {
			return nil, err
		}
		h.tools = append(h.tools, t)
	}
	for _, name := range cfg.targets {
		if _, err := findTarget(name); err != nil {
			return nil, err
		}
	}
	h.buildCache = cfg.buildCache
	if h.buildCache == "" {
		h.buildCache = filepath.Join(cfg.work, "gocache-tools")
	}
	h.baseEnv = isolatedEnv(cfg.work)
	return h, os.MkdirAll(filepath.Join(cfg.work, "logs"), 0o755)
}

// isolatedEnv keeps the go command's own files in the scratch directory:
// XDG_CONFIG_HOME moves the telemetry counters there, and GOENV still points
// at the user's go env file, which holds settings such as GOFLAGS.
func isolatedEnv(work string) []string {
	goenv := os.Getenv("GOENV")
	if dir, err := os.UserConfigDir(); goenv == "" && err == nil {
		goenv = filepath.Join(dir, "go", "env")
	}
	return append(os.Environ(), "GOENV="+goenv, "XDG_CONFIG_HOME="+filepath.Join(work, "config"))
}

// env is the environment of every go command and tool the harness runs.
// Exec keeps the last value of a repeated key, so these override the user's.
func (h *harness) env(goCache, scCache string) []string {
	env := append(slices.Clip(h.baseEnv), "GOCACHE="+goCache,
		"GOFLAGS=-buildvcs=false -mod=readonly", "GOWORK=off", "GOTOOLCHAIN=local")
	if scCache != "" {
		env = append(env, "STATICCHECK_CACHE="+scCache)
	}
	return env
}

// measuredEnv also turns the module proxy off: every module was downloaded
// while resolving the targets, and a download inside a timed run would be
// measured as analysis.
func (h *harness) measuredEnv(goCache, scCache string) []string {
	return append(h.env(goCache, scCache), "GOPROXY=off")
}

func (h *harness) logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func (h *harness) uses(binary string) bool {
	return slices.ContainsFunc(h.tools, func(t tool) bool { return t.bin == binary })
}

// linkTree makes dst a copy of the build cache src out of hard links, which
// costs no time or disk. A run adds new files; it writes to an existing one
// only to re-record an action that missed, and then with the same
// content-addressed output, so the template the next run links stays valid.
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return os.Link(path, filepath.Join(dst, rel))
	})
}
