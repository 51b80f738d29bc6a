package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// targetResult holds what one target's runs produced; samples are medians
// over the repetitions.
type targetResult struct {
	target
	resolved
	Deps       int               // packages loaded, counting tests and imports
	Fill       sample            // compiling the packages into the template build cache
	Cold, Warm map[string]sample // by tool name
	Passes     map[string]int    // sendlint findings per analyzer, from -json
	PassErrors int               // (package, analyzer) pairs that failed instead
}

// linearRow is one prefix of the per-package table.
type linearRow struct {
	Packages, Deps int
	Cold           map[string]sample
}

func (h *harness) runAll() (*report, error) {
	start := time.Now()
	rep, err := h.newReport()
	if err != nil {
		return nil, err
	}
	for _, name := range h.cfg.targets {
		t, _ := findTarget(name)
		tr, err := h.runTarget(t, rep)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rep.Targets = append(rep.Targets, tr)
		rep.Minutes = time.Since(start).Minutes()
		if err := h.checkpoint(rep); err != nil {
			return nil, err
		}
	}
	if h.cfg.linear != "" && rep.Linear == nil {
		t, err := findTarget(h.cfg.linear)
		if err != nil {
			return nil, err
		}
		if rep.Linear, err = h.runLinearAlone(t); err != nil {
			return nil, fmt.Errorf("per-package table: %w", err)
		}
	}
	rep.Minutes = time.Since(start).Minutes()
	return rep, h.checkpoint(rep)
}

// checkpoint saves the results so far, so that a run that fails late can
// still be rendered (with -keep and -render) from what it measured.
func (h *harness) checkpoint(rep *report) error {
	for _, path := range []string{h.cfg.results, filepath.Join(h.cfg.work, "results.json")} {
		if path != "" {
			if err := saveResults(path, rep); err != nil {
				return err
			}
		}
	}
	return nil
}

// runTarget measures every tool on one target. The per-package table, when
// it is over this target, runs here too so that it reuses the build cache.
func (h *harness) runTarget(t target, rep *report) (targetResult, error) {
	tr := targetResult{target: t}
	var err error
	if tr.resolved, err = h.resolve(t); err != nil {
		return tr, err
	}
	if len(tr.Packages) == 0 {
		return tr, fmt.Errorf("no package of %s loads", t.Pattern)
	}
	h.logf("%s: %d packages (%d excluded)", t.Name, len(tr.Packages), len(tr.Excluded))
	if tr.Deps, err = h.countDeps(tr.Packages); err != nil {
		return tr, err
	}
	template := filepath.Join(h.cfg.work, "template-"+safe(t.Name))
	defer os.RemoveAll(template)
	if tr.Fill, err = h.fill(t.Name, template, tr.Packages); err != nil {
		return tr, err
	}
	if err := h.measureTools(&tr, template); err != nil {
		return tr, err
	}
	if h.uses("sendlint") {
		if tr.Passes, tr.PassErrors, err = h.passes(t.Name, template, tr.Packages); err != nil {
			return tr, err
		}
	}
	if t.Name == h.cfg.linear {
		rep.Linear, err = h.runLinear(t.Name, tr.Packages, template, tr.Cold)
	}
	return tr, err
}

// fill compiles what every tool will ask the go command for (export data
// of the packages, their tests and their imports, cgo output) into a build
// cache that each run then starts from. Compiling is thus left out of all
// the measured runs alike; its own cost is reported beside them.
func (h *harness) fill(name, template string, pkgs []string) (sample, error) {
	h.logf("%s: compiling into the template build cache", name)
	args := append([]string{"go", "list", "-e", "-export", "-compiled", "-deps", "-test", "-f", "{{.ImportPath}}"}, pkgs...)
	s, err := measure(run{h.modDir, h.measuredEnv(template, ""), args, h.logPrefix(name, "fill")})
	h.logf("%s: compiled in %.1f s", name, s.Wall)
	return s, err
}

// measureTools times each tool cold then warm, n times, and keeps medians.
func (h *harness) measureTools(tr *targetResult, template string) error {
	cold, warm := map[string][]sample{}, map[string][]sample{}
	for rep := 1; rep <= h.cfg.n; rep++ {
		for _, tl := range h.tools {
			tag := fmt.Sprintf("%s-%d", tl.name, rep)
			c, w, err := h.coldWarm(tr.Name, tag, tl, tr.Packages, template, true)
			if err != nil {
				return err
			}
			cold[tl.name], warm[tl.name] = append(cold[tl.name], c), append(warm[tl.name], w)
		}
	}
	tr.Cold, tr.Warm = medians(cold), medians(warm)
	return nil
}

// coldWarm runs one tool with fresh analysis caches (a linked copy of the
// template build cache and an empty staticcheck cache), then, when asked,
// again with the caches that run left behind.
func (h *harness) coldWarm(target, tag string, tl tool, pkgs []string, template string, warm bool) (c, w sample, err error) {
	caches := filepath.Join(h.cfg.work, "caches", safe(target)+"-"+tag)
	defer os.RemoveAll(caches)
	goCache, scCache := filepath.Join(caches, "go"), filepath.Join(caches, "staticcheck")
	if err := linkTree(template, goCache); err != nil {
		return c, w, err
	}
	r := run{h.modDir, h.measuredEnv(goCache, scCache), tl.argv(h.bin, pkgs), h.logPrefix(target, tag+"-cold")}
	c, err = measure(r)
	h.logSample(target, tag+" cold", c)
	if err != nil || !warm {
		return c, w, err
	}
	r.prefix = h.logPrefix(target, tag+"-warm")
	w, err = measure(r)
	h.logSample(target, tag+" warm", w)
	return c, w, err
}

// passes runs sendlint -json once, untimed, for its findings per analyzer.
func (h *harness) passes(target, template string, pkgs []string) (map[string]int, int, error) {
	tl := tool{name: "sendlint-json", argv: func(b map[string]string, pkgs []string) []string {
		return append([]string{b["sendlint"], "-json"}, pkgs...)
	}}
	if _, _, err := h.coldWarm(target, "sendlint-json", tl, pkgs, template, false); err != nil {
		return nil, 0, err
	}
	f, err := os.Open(h.logPrefix(target, "sendlint-json-cold") + ".stdout")
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = f.Close() }() // read only
	return passCounts(f)
}

func (h *harness) logPrefix(target, tag string) string {
	dir := filepath.Join(h.cfg.work, "logs", safe(target))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		// The run that writes the log reports the failure to create it.
		return filepath.Join(h.cfg.work, safe(target)+"-"+tag)
	}
	return filepath.Join(dir, tag)
}

func (h *harness) logSample(target, what string, s sample) {
	h.logf("%s: %s: %.1f s, tree %d MiB, %d findings, exit %d, other load %.1f CPU s", target, what, s.Wall, s.TreeRSS/1024, s.Findings, s.Exit, s.Background)
}

// safe turns a target name such as x/tools into a file name.
func safe(name string) string { return strings.ReplaceAll(name, "/", "_") }

// medians takes, field by field, the median of each tool's samples.
func medians(by map[string][]sample) map[string]sample {
	out := map[string]sample{}
	for name, ss := range by {
		out[name] = sample{
			Wall:       median(ss, func(s sample) float64 { return s.Wall }),
			CPU:        median(ss, func(s sample) float64 { return s.CPU }),
			MaxRSS:     int64(median(ss, func(s sample) float64 { return float64(s.MaxRSS) })),
			TreeRSS:    int64(median(ss, func(s sample) float64 { return float64(s.TreeRSS) })),
			Background: median(ss, func(s sample) float64 { return s.Background }),
			Exit:       ss[len(ss)-1].Exit,
			Findings:   ss[len(ss)-1].Findings,
			Other:      ss[len(ss)-1].Other,
		}
	}
	return out
}

// median of an odd count is the middle value; of an even count, the mean
// of the two middle ones.
func median(ss []sample, field func(sample) float64) float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = field(s)
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
