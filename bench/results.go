package main

import (
	"encoding/json"
	"os"
	"slices"
)

func saveResults(path string, rep *report) error {
	b, err := json.MarshalIndent(rep, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func loadResults(path string) (*report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rep := new(report)
	return rep, json.Unmarshal(b, rep)
}

// keepTools drops every number of the tools not in keep, so that a run
// made with a stand-in for sendlint can publish its baselines alone.
func (rep *report) keepTools(keep []string) {
	rep.Tools = slices.DeleteFunc(rep.Tools, func(t string) bool { return !slices.Contains(keep, t) })
	for _, bin := range []string{"sendlint", "staticcheck"} {
		if !slices.ContainsFunc(rep.Tools, func(t string) bool { return toolBin(t) == bin }) {
			delete(rep.Versions, bin)
		}
	}
	for i := range rep.Targets {
		t := &rep.Targets[i]
		dropTools(t.Cold, keep)
		dropTools(t.Warm, keep)
		if !slices.Contains(keep, "sendlint") {
			t.Passes, t.PassErrors = nil, 0
		}
	}
	for _, r := range rep.Linear {
		dropTools(r.Cold, keep)
	}
}

func dropTools(m map[string]sample, keep []string) {
	for name := range m {
		if !slices.Contains(keep, name) {
			delete(m, name)
		}
	}
}

func toolBin(name string) string {
	t, _ := findTool(name)
	return t.bin
}
