package main

import (
	"encoding/json"
	"maps"
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

// mergeResults reads several -results files, of runs made in parts on one
// machine, into one report: targets in file order, the first per-package
// table found, the time they took added up.
func mergeResults(paths []string) (*report, error) {
	var rep *report
	for _, path := range paths {
		r, err := loadResults(path)
		if err != nil {
			return nil, err
		}
		if rep == nil {
			rep = r
			continue
		}
		rep.Targets = append(rep.Targets, r.Targets...)
		rep.MergedArgs = append(rep.MergedArgs, r.Args)
		rep.Minutes += r.Minutes
		rep.N = min(rep.N, r.N)
		rep.Tools = mergeLists(rep.Tools, r.Tools)
		maps.Copy(rep.Versions, r.Versions)
		if rep.Linear == nil {
			rep.Linear, rep.LinearTarget = r.Linear, r.LinearTarget
		}
	}
	return rep, nil
}

func mergeLists(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
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
