package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// writeReport writes the counts, the sample, ledger rows to fill in for
// it, and with a ledger the check, all as markdown.
func writeReport(w io.Writer, runs []targetRun, samples []passSample, seed uint64, check *ledgerCheck) {
	names := passNames(runs)
	fmt.Fprintf(w, "## Findings per target\n\n")
	fmt.Fprintf(w, "`sendlint -audit -format=json` on each target's own packages, test files not analysed.\n\n")
	writeCounts(w, "Default tier", runs, names, func(t tally) int { return t.Default })
	writeCounts(w, "Audit tier (`-audit`)", runs, names, func(t tally) int { return t.Audit })
	writeProblems(w, runs)
	fmt.Fprintf(w, "## Sample (seed %d)\n\n", seed)
	for _, s := range samples {
		writeSample(w, s)
	}
	writeRows(w, samples)
	if check != nil {
		writeCheck(w, check)
	}
}

func writeCounts(w io.Writer, title string, runs []targetRun, names []string, pick func(tally) int) {
	fmt.Fprintf(w, "### %s\n\n| target | module | version | packages |", title)
	for _, name := range names {
		fmt.Fprintf(w, " %s |", name)
	}
	fmt.Fprintf(w, "\n|---|---|---|--:|%s\n", strings.Repeat("--:|", len(names)))
	total := make([]int, len(names))
	pkgs := 0
	for _, tr := range runs {
		counts := countTiers(tr.Findings)
		fmt.Fprintf(w, "| %s | %s | %s | %d |", tr.Name, tr.Module, tr.Version, tr.Packages)
		for i, name := range names {
			n := pick(counts[name])
			total[i] += n
			fmt.Fprintf(w, " %d |", n)
		}
		pkgs += tr.Packages
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "| **total** | | | %d |", pkgs)
	for _, n := range total {
		fmt.Fprintf(w, " **%d** |", n)
	}
	fmt.Fprintf(w, "\n\n")
}

// writeProblems lists packages left out because they do not load and the
// errors sendlint reported, which make a target's counts incomplete.
func writeProblems(w io.Writer, runs []targetRun) {
	var lines []string
	for _, tr := range runs {
		for _, e := range tr.Excluded {
			lines = append(lines, fmt.Sprintf("- %s: not analysed, does not load: %s", tr.Name, e))
		}
		for _, e := range tr.Errors {
			lines = append(lines, fmt.Sprintf("- %s: sendlint: %s", tr.Name, e))
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "### Packages not analysed\n\n%s\n\n", strings.Join(lines, "\n"))
}

func writeSample(w io.Writer, s passSample) {
	fmt.Fprintf(w, "### %s: %d of %d default-tier findings\n\n", s.Pass, len(s.Findings), s.Total)
	if len(s.Findings) == 0 {
		return
	}
	fmt.Fprintf(w, "```text\n")
	for _, f := range s.Findings {
		fmt.Fprintf(w, "%s: %s\n", f.where(), f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(w, "\t%s: %s\n", r.Where, r.Message)
		}
	}
	fmt.Fprintf(w, "```\n\n")
}

// writeRows writes a ledger table with one row per sampled finding and the
// verdicts left empty, to paste into the ledger and fill in.
func writeRows(w io.Writer, samples []passSample) {
	fmt.Fprintf(w, "### Ledger rows to fill in\n\n| %s |\n|%s\n", strings.Join(ledgerHeader, " | "),
		strings.Repeat("---|", len(ledgerHeader)))
	for _, s := range samples {
		for _, f := range s.Findings {
			where := f.Module + " " + f.File + ":" + strconv.Itoa(f.Line)
			fmt.Fprintf(w, "| %s | %s | %s | | |\n", f.Pass, code(where), code(f.Message))
		}
	}
	fmt.Fprintln(w)
}

// code wraps a cell in backquotes when that keeps it intact, and escapes
// the pipes that would end it.
func code(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	if strings.Contains(s, "`") {
		return s
	}
	return "`" + s + "`"
}

func writeCheck(w io.Writer, c *ledgerCheck) {
	fmt.Fprintf(w, "## Ledger %s\n\n", c.Path)
	fmt.Fprintf(w, "| pass | worth fixing | worth reading | noise | no verdict | sampled | 9 of 10 worth fixing |\n")
	fmt.Fprintf(w, "|---|--:|--:|--:|--:|--:|---|\n")
	for _, pc := range c.Passes {
		bar := "no"
		switch {
		case pc.Sampled == 0:
			bar = "no findings"
		case len(pc.Missing) > 0:
			bar = "not judged yet"
		case pc.meetsBar():
			bar = "yes"
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %s |\n", pc.Pass, pc.Verdicts[worthFixing],
			pc.Verdicts[worthReading], pc.Verdicts[noise], len(pc.Missing), pc.Sampled, bar)
	}
	fmt.Fprintln(w)
	if len(c.Proofs) > 0 {
		writeProofs(w, c.Proofs)
	}
	var missing []string
	for _, pc := range c.Passes {
		for _, f := range pc.Missing {
			missing = append(missing, fmt.Sprintf("- %s %s: %s", pc.Pass, f.where(), f.Message))
		}
	}
	writeList(w, "Sampled findings without a verdict", missing)
	var malformed, unused []string
	for _, r := range c.Malformed {
		malformed = append(malformed, fmt.Sprintf("- line %d: %s", r.Line, r.malformed))
	}
	for _, r := range c.Unused {
		unused = append(unused, fmt.Sprintf("- line %d: %s %s %s:%d", r.Line, r.Pass, r.Module, r.File, r.At))
	}
	writeList(w, "Malformed ledger rows", malformed)
	writeList(w, "Ledger rows of no sampled finding (another seed or version)", unused)
}

func writeList(w io.Writer, title string, lines []string) {
	if len(lines) > 0 {
		fmt.Fprintf(w, "### %s\n\n%s\n\n", title, strings.Join(lines, "\n"))
	}
}
