package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sendlint/sendlint/passes"
)

// report is everything a run measured; -results saves it as JSON and
// -render writes the markdown again from such a file.
type report struct {
	Date         time.Time
	Machine      [][2]string
	Versions     map[string]string
	Tools        []string   // as given to -tools
	Args         []string   // bench/run's arguments
	MergedArgs   [][]string // those of the runs -render merged into this one
	N            int
	LinearTarget string
	Minutes      float64 // the whole run, builds included
	Targets      []targetResult
	Linear       []linearRow
}

func (h *harness) newReport() (*report, error) {
	versions, err := h.buildTools()
	if err != nil {
		return nil, err
	}
	goVersion, err := firstLine("go", "version")
	if err != nil {
		return nil, err
	}
	versions["go"] = goVersion
	rep := &report{Date: time.Now().UTC(), Machine: machine(goVersion), Versions: versions,
		Args: h.cfg.args, N: h.cfg.n, LinearTarget: h.cfg.linear}
	for _, t := range h.tools {
		rep.Tools = append(rep.Tools, t.name)
	}
	return rep, nil
}

// machine describes what the numbers were taken on.
func machine(goVersion string) [][2]string {
	cpu := "unknown"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := "unknown"
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(strings.TrimPrefix(string(b), "MemTotal:"), "%d", &kb); err == nil {
			mem = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
		}
	}
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return [][2]string{
		{"CPUs (nproc)", fmt.Sprint(runtime.NumCPU())},
		{"CPU model", cpu},
		{"Memory", mem},
		{"Kernel", strings.TrimSpace(string(kernel))},
		{"Go", goVersion},
	}
}

func writeReport(path string, rep *report) error {
	var b bytes.Buffer
	rep.header(&b)
	rep.targets(&b)
	rep.method(&b)
	b.WriteString("## Standalone, cold caches\n\n")
	rep.compare(&b, "sendlint", "staticcheck", func(t targetResult) map[string]sample { return t.Cold })
	b.WriteString("## go vet, cold vet cache\n\n")
	rep.compare(&b, "govet-sendlint", "govet", func(t targetResult) map[string]sample { return t.Cold })
	b.WriteString("## Warm: a second run on unchanged code\n\n")
	rep.compare(&b, "sendlint", "staticcheck", func(t targetResult) map[string]sample { return t.Warm })
	rep.compare(&b, "govet-sendlint", "govet", func(t targetResult) map[string]sample { return t.Warm })
	rep.linear(&b)
	rep.findings(&b)
	rep.passes(&b)
	rep.excluded(&b)
	rep.reproduce(&b)
	if path == "-" {
		_, err := os.Stdout.Write(b.Bytes())
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func (rep *report) header(b *bytes.Buffer) {
	fmt.Fprintf(b, "# Benchmarks\n\nWritten by `%s` on %s (median of %d run(s) each)",
		strings.Join(rep.commands(), "` and `"), rep.Date.Format("2006-01-02 15:04 MST"), rep.N)
	if rep.Minutes > 0 {
		fmt.Fprintf(b, "; measuring took %.0f minutes", rep.Minutes)
	}
	b.WriteString(".\n\n")
	if !slices.Contains(rep.Tools, "sendlint") {
		b.WriteString("**sendlint is not measured here: its rows come from the next run of `bench/run`. The numbers below are the baselines it will be compared with.**\n\n")
	}
	if busy := rep.busiestRun(); busy > 0.25 {
		fmt.Fprintf(b, "**The machine was not idle:** other work used up to %.0f%% of its CPUs during a run (column *Other load*). Wall times of such runs are inflated; CPU times much less, so compare those.\n\n", busy*100)
	}
	b.WriteString("| Machine | |\n|---|---|\n")
	for _, kv := range rep.Machine {
		fmt.Fprintf(b, "| %s | %s |\n", kv[0], kv[1])
	}
	b.WriteString("\n| Tool | Version |\n|---|---|\n")
	for _, k := range slices.Sorted(maps.Keys(rep.Versions)) {
		fmt.Fprintf(b, "| %s | `%s` |\n", k, rep.Versions[k])
	}
	b.WriteString("\n")
}

// busiestRun is the largest share of the machine's CPU time that other
// work took during any one timed run. Runs under a second say little.
func (rep *report) busiestRun() float64 {
	cpus, _ := strconv.Atoi(rep.machineValue("CPUs (nproc)"))
	share := 0.0
	check := func(s sample) {
		if s.Wall >= 1 && cpus > 0 {
			share = max(share, s.Background/(s.Wall*float64(cpus)))
		}
	}
	for _, t := range rep.Targets {
		for _, s := range t.Cold {
			check(s)
		}
		for _, s := range t.Warm {
			check(s)
		}
	}
	for _, r := range rep.Linear {
		for _, s := range r.Cold {
			check(s)
		}
	}
	return share
}

func (rep *report) machineValue(key string) string {
	for _, kv := range rep.Machine {
		if kv[0] == key {
			return kv[1]
		}
	}
	return ""
}

func (rep *report) targets(b *bytes.Buffer) {
	b.WriteString("## Targets\n\n")
	b.WriteString("| Target | Version | Packages | Loaded with tests and imports | Excluded | Compile s (excluded from all runs) |\n|---|---|--:|--:|--:|--:|\n")
	for _, t := range rep.Targets {
		fmt.Fprintf(b, "| %s (`%s`) | %s | %d | %d | %d | %.1f |\n",
			t.Name, t.Pattern, t.Version, len(t.Packages), t.Deps, len(t.Excluded), t.Fill.Wall)
	}
	b.WriteString("\n")
}

func (rep *report) method(b *bytes.Buffer) {
	fmt.Fprintf(b, methodText, sampleInterval.Milliseconds())
}

// compare prints a against b for every target, each cell "a / b": wall
// time, CPU, peak tree RSS and the largest single process. Ratios are a/b:
// below 1, a is cheaper.
func (rep *report) compare(b *bytes.Buffer, a, base string, phase func(targetResult) map[string]sample) {
	fmt.Fprintf(b, "`%s` / `%s`:\n\n", label(a), label(base))
	b.WriteString("| Target | Pkgs | Wall s | Wall × | CPU s | CPU × | Tree MiB | Tree × | Largest MiB | Other load CPU s |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, t := range rep.Targets {
		sa, okA := phase(t)[a]
		sb, okB := phase(t)[base]
		pair := func(f func(sample, bool) string) string { return f(sa, okA) + " / " + f(sb, okB) }
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", t.Name, len(t.Packages),
			pair(func(s sample, ok bool) string { return secs(s.Wall, ok) }),
			ratio(sa.Wall, sb.Wall, okA && okB),
			pair(func(s sample, ok bool) string { return secs(s.CPU, ok) }),
			ratio(sa.CPU, sb.CPU, okA && okB),
			pair(func(s sample, ok bool) string { return mib(s.TreeRSS, ok) }),
			ratio(float64(sa.TreeRSS), float64(sb.TreeRSS), okA && okB),
			pair(func(s sample, ok bool) string { return mib(s.MaxRSS, ok) }),
			pair(func(s sample, ok bool) string { return secs(s.Background, ok) }))
	}
	b.WriteString("\n")
}

func (rep *report) linear(b *bytes.Buffer) {
	if len(rep.Linear) == 0 {
		return
	}
	fmt.Fprintf(b, "## Cost per package\n\nCold standalone runs on the first N packages of `go list` over target `%s` (when that target is measured above, its cold run is the last row). *Loaded* counts the packages, their tests and their imports.\n\n", rep.LinearTarget)
	b.WriteString("| Packages | Loaded |")
	for _, name := range linearTools {
		fmt.Fprintf(b, " %[1]s s | %[1]s s/pkg | %[1]s CPU s/pkg | %[1]s tree MiB |", name)
	}
	b.WriteString("\n|--:|--:|" + strings.Repeat("--:|", 4*len(linearTools)) + "\n")
	for _, r := range rep.Linear {
		fmt.Fprintf(b, "| %d | %d", r.Packages, r.Deps)
		for _, name := range linearTools {
			s, ok := r.Cold[name]
			fmt.Fprintf(b, " | %s | %s | %s | %s", secs(s.Wall, ok), perPkg(s.Wall, r.Packages, ok),
				perPkg(s.CPU, r.Packages, ok), mib(s.TreeRSS, ok))
		}
		b.WriteString(" |\n")
	}
	b.WriteString("\n")
}

func (rep *report) findings(b *bytes.Buffer) {
	b.WriteString("## Findings\n\nDiagnostic lines of the cold run; in brackets the exit code and, when not zero, the count of other output lines (load or type errors; the logs are kept with `-keep`).\n\n| Target |")
	for _, name := range rep.Tools {
		fmt.Fprintf(b, " %s |", label(name))
	}
	b.WriteString("\n|---|" + strings.Repeat("--:|", len(rep.Tools)) + "\n")
	for _, t := range rep.Targets {
		fmt.Fprintf(b, "| %s |", t.Name)
		for _, name := range rep.Tools {
			s := t.Cold[name]
			extra := ""
			if s.Other > 0 {
				extra = fmt.Sprintf(", %d other", s.Other)
			}
			fmt.Fprintf(b, " %d (exit %d%s) |", s.Findings, s.Exit, extra)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func (rep *report) passes(b *bytes.Buffer) {
	if !slices.Contains(rep.Tools, "sendlint") {
		return
	}
	// Every pass gets a column, a pass with no finding anywhere included.
	var names []string
	for _, a := range passes.All() {
		names = append(names, a.Name)
	}
	for _, t := range rep.Targets {
		names = append(names, slices.Collect(maps.Keys(t.Passes))...)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	b.WriteString("## sendlint findings per pass\n\nFrom `sendlint -json`; \"errors\" counts (package, pass) pairs that reported an error instead.\n\n| Target |")
	for _, n := range names {
		fmt.Fprintf(b, " %s |", n)
	}
	b.WriteString(" errors |\n|---|" + strings.Repeat("--:|", len(names)+1) + "\n")
	for _, t := range rep.Targets {
		fmt.Fprintf(b, "| %s |", t.Name)
		for _, n := range names {
			fmt.Fprintf(b, " %d |", t.Passes[n])
		}
		fmt.Fprintf(b, " %d |\n", t.PassErrors)
	}
	b.WriteString("\n")
}

// excluded lists what go list could not load, grouped by reason, since
// one missing module usually knocks out many packages.
func (rep *report) excluded(b *bytes.Buffer) {
	b.WriteString("## Excluded packages\n\n")
	listed := false
	for _, t := range rep.Targets {
		for _, n := range t.Notes {
			fmt.Fprintf(b, "- %s: pattern note, nothing excluded for it: %s\n", t.Name, n)
			listed = true
		}
		byReason := map[string][]string{}
		for _, e := range t.Excluded {
			byReason[e.Reason] = append(byReason[e.Reason], e.Path)
		}
		for _, reason := range slices.Sorted(maps.Keys(byReason)) {
			fmt.Fprintf(b, "- %s: %s: %s\n", t.Name, strings.Join(byReason[reason], ", "), reason)
			listed = true
		}
	}
	if !listed {
		b.WriteString("None: every package of every target loaded with its tests.\n")
	}
	b.WriteString("\n")
}

func (rep *report) reproduce(b *bytes.Buffer) {
	fmt.Fprintf(b, reproduceText, strings.Join(rep.commands(), "\n"))
}

// commands are the bench/run commands whose results this report shows,
// quoted for a shell so that an empty value (-linear's, to skip the
// per-package table) survives a copy and paste.
func (rep *report) commands() []string {
	var out []string
	for _, args := range append([][]string{rep.Args}, rep.MergedArgs...) {
		cmd := "bench/run"
		for _, a := range args {
			cmd += " " + shellQuote(a)
		}
		out = append(out, cmd)
	}
	return out
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/.,=:") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func label(tool string) string {
	t, err := findTool(tool)
	if err != nil {
		return tool
	}
	return t.label
}

func secs(v float64, ok bool) string {
	if !ok {
		return "—"
	}
	return fmt.Sprintf("%.1f", v)
}

func mib(kb int64, ok bool) string {
	if !ok {
		return "—"
	}
	return fmt.Sprint(kb / 1024)
}

func ratio(a, b float64, ok bool) string {
	if !ok || b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", a/b)
}

func perPkg(secs float64, pkgs int, ok bool) string {
	if !ok {
		return "—"
	}
	return fmt.Sprintf("%.3f", secs/float64(pkgs))
}
