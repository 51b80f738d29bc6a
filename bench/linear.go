package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// linearTools are the tools the per-package table times: the standalone
// ones, where the tool itself decides how work grows with the package count.
var linearTools = []string{"sendlint", "staticcheck"}

// runLinear times cold runs on growing prefixes of pkgs (in go list order)
// so the report can show seconds per package as the count grows. whole
// holds cold runs on all of pkgs already made, if any: the last prefix
// reuses them rather than repeating the target's longest runs.
func (h *harness) runLinear(name string, pkgs []string, template string, whole map[string]sample) ([]linearRow, error) {
	var rows []linearRow
	for _, k := range prefixSizes(h.cfg.prefixes, len(pkgs)) {
		row := linearRow{Packages: k, Cold: map[string]sample{}}
		var err error
		if row.Deps, err = h.countDeps(pkgs[:k]); err != nil {
			return nil, err
		}
		for _, tl := range h.tools {
			if !slices.Contains(linearTools, tl.name) {
				continue
			}
			if s, ok := whole[tl.name]; ok && k == len(pkgs) {
				row.Cold[tl.name] = s
				continue
			}
			samples := map[string][]sample{}
			for rep := 1; rep <= h.cfg.n; rep++ {
				tag := fmt.Sprintf("linear%d-%s-%d", k, tl.name, rep)
				c, _, err := h.coldWarm(name, tag, tl, pkgs[:k], template, false)
				if err != nil {
					return nil, err
				}
				samples[tl.name] = append(samples[tl.name], c)
			}
			row.Cold[tl.name] = medians(samples)[tl.name]
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// runLinearAlone serves -linear when its target is not among -targets:
// it compiles only the largest prefix into a template of its own.
func (h *harness) runLinearAlone(t target) ([]linearRow, error) {
	r, err := h.resolve(t)
	if err != nil {
		return nil, err
	}
	sizes := prefixSizes(h.cfg.prefixes, len(r.Packages))
	if len(sizes) == 0 {
		return nil, fmt.Errorf("no package of %s loads", t.Pattern)
	}
	pkgs := r.Packages[:sizes[len(sizes)-1]]
	template := filepath.Join(h.cfg.work, "template-linear")
	defer os.RemoveAll(template)
	if _, err := h.fill(t.Name, template, pkgs); err != nil {
		return nil, err
	}
	return h.runLinear(t.Name, pkgs, template, nil)
}

// prefixSizes turns -prefixes into increasing package counts no larger
// than total; 0 stands for total.
func prefixSizes(prefixes []int, total int) []int {
	var sizes []int
	for _, p := range prefixes {
		if p == 0 || p > total {
			p = total
		}
		if p > 0 {
			sizes = append(sizes, p)
		}
	}
	slices.Sort(sizes)
	return slices.Compact(sizes)
}
