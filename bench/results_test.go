package main

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestMergeAndKeep checks what publishing baselines from runs made in parts
// relies on: targets and commands add up, and dropped tools leave nothing.
func TestMergeAndKeep(t *testing.T) {
	dir := t.TempDir()
	one := &report{Args: []string{"-targets", "std"}, N: 1, Minutes: 10, LinearTarget: "std",
		Tools: []string{"sendlint", "govet"}, Versions: map[string]string{"sendlint": "x", "go": "go1"},
		Targets: []targetResult{{target: target{Name: "std"}, Cold: map[string]sample{"sendlint": {Wall: 1}, "govet": {Wall: 2}},
			Passes: map[string]int{"baresend": 3}}},
		Linear: []linearRow{{Packages: 1, Cold: map[string]sample{"sendlint": {Wall: 1}}}}}
	two := &report{Args: []string{"-targets", "grpc", "-linear", ""}, N: 1, Minutes: 5, Tools: []string{"staticcheck"},
		Versions: map[string]string{"staticcheck": "0.8.2"},
		Targets:  []targetResult{{target: target{Name: "grpc"}, Cold: map[string]sample{"staticcheck": {Wall: 3}}}}}
	paths := []string{filepath.Join(dir, "one.json"), filepath.Join(dir, "two.json")}
	for i, r := range []*report{one, two} {
		if err := saveResults(paths[i], r); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := mergeResults(paths)
	if err != nil {
		t.Fatal(err)
	}
	rep.keepTools([]string{"staticcheck", "govet"})

	if got := rep.commands(); !reflect.DeepEqual(got, []string{"bench/run -targets std", "bench/run -targets grpc -linear ''"}) {
		t.Errorf("commands = %q", got)
	}
	if rep.Minutes != 15 || len(rep.Targets) != 2 || len(rep.Linear) != 1 {
		t.Errorf("merged: %v minutes, %d targets, %d linear rows; want 15, 2, 1", rep.Minutes, len(rep.Targets), len(rep.Linear))
	}
	if !reflect.DeepEqual(rep.Tools, []string{"govet", "staticcheck"}) {
		t.Errorf("tools = %v, want [govet staticcheck]", rep.Tools)
	}
	if _, ok := rep.Versions["sendlint"]; ok || rep.Targets[0].Passes != nil {
		t.Error("sendlint's version or per-pass counts survived keepTools")
	}
	if _, ok := rep.Targets[0].Cold["sendlint"]; ok || len(rep.Linear[0].Cold) != 0 {
		t.Error("sendlint's samples survived keepTools")
	}
}
