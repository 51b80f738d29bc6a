package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	sendfinding "github.com/sendlint/sendlint/internal/finding"
)

// The ledger is every markdown table of docs/PRECISION.md whose header is
// ledgerHeader, one row per sampled finding:
//
//	| pass | where | message | verdict | reason |
//	|---|---|---|---|---|
//	| baresend | `github.com/hashicorp/raft raft.go:1020` | `send on r.x (chan T, cap 1) can block forever` | worth fixing | the leader loop stalls when ... |
//
// where is the module path (std for the standard library), a space, and the
// file relative to the module root with its line, and optionally its column.
// message is the finding's message or its beginning: a row matches a finding
// of its pass at that place whose message starts with it (a trailing "..."
// or "…" is dropped first). A cell may be wrapped in backquotes, and "\|"
// stands for a "|" inside one. verdict is one of the verdicts below, or
// empty while nobody has read the finding.
var ledgerHeader = []string{"pass", "where", "message", "verdict", "reason"}

// A verdict is what a reader decided about a sampled finding.
type verdict string

const (
	worthFixing  verdict = "worth fixing"  // the project's reviewers would accept a fix
	worthReading verdict = "worth reading" // a real hazard, which reviewers may accept as a documented trade-off
	noise        verdict = "noise"         // cannot block, or not worth changing
)

var verdicts = []verdict{worthFixing, worthReading, noise}

// A row is one ledger row.
type row struct {
	Line      int // line of the ledger file
	Pass      string
	Module    string
	File      string
	At, Col   int // line and column; Col 0 matches any column
	Message   string
	Verdict   verdict // "" when not given yet
	Reason    string
	malformed string // why the row does not parse; "" when it does
}

func readLedger(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only
	return parseLedger(f)
}

// parseLedger reads the rows of every ledger table in a markdown file,
// skipping fenced code blocks, which show the format. Rows that do not
// parse are returned with the reason, for the check to report.
func parseLedger(r io.Reader) ([]row, error) {
	var rows []row
	inTable, inCode := false, false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "|") {
			inTable = false
			continue
		}
		cells := splitCells(line)
		switch {
		case slices.Equal(lower(cells), ledgerHeader):
			inTable = true
		case !inTable, isSeparator(cells):
		default:
			rows = append(rows, parseRow(n, cells))
		}
	}
	return rows, sc.Err()
}

func parseRow(n int, cells []string) row {
	r := row{Line: n}
	if len(cells) != len(ledgerHeader) {
		r.malformed = fmt.Sprintf("%d cells, want %d", len(cells), len(ledgerHeader))
		return r
	}
	r.Pass, r.Message, r.Reason = cells[0], cells[2], cells[4]
	r.Message = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(r.Message, "..."), "…"))
	module, place, ok := strings.Cut(cells[1], " ")
	pos := sendfinding.ParsePosition(strings.TrimSpace(place))
	if !ok || module == "" || !pos.Valid() {
		r.malformed = fmt.Sprintf("where %q is not \"module file:line\"", cells[1])
		return r
	}
	r.Module, r.File, r.At, r.Col = module, pos.File, pos.Line, pos.Col
	r.Verdict = verdict(strings.ToLower(cells[3]))
	if r.Verdict != "" && !slices.Contains(verdicts, r.Verdict) {
		r.malformed = fmt.Sprintf("verdict %q is none of %q", cells[3], verdicts)
	}
	return r
}

// splitCells splits a table line into its trimmed cells, with one pair of
// enclosing backquotes removed and "\|" read as "|".
func splitCells(line string) []string {
	line = strings.TrimPrefix(line, "|")
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, cleanCell(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	if rest := strings.TrimSpace(cell.String()); rest != "" {
		cells = append(cells, cleanCell(rest)) // a row without its closing "|"
	}
	return cells
}

func cleanCell(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

func isSeparator(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, ":-") != "" {
			return false
		}
	}
	return len(cells) > 0
}

func lower(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = strings.ToLower(c)
	}
	return out
}

// matches reports whether r is the ledger row of f.
func (r row) matches(f finding) bool {
	return r.malformed == "" && r.Pass == f.Pass && r.Module == f.Module && r.File == f.File &&
		r.At == f.Line && (r.Col == 0 || r.Col == f.Col) && strings.HasPrefix(f.Message, r.Message)
}

// A ledgerCheck is the ledger held against the sample.
type ledgerCheck struct {
	Path      string
	Passes    []passCheck
	Malformed []row
	Unused    []row // rows of no sampled finding: left from another sample
	Proofs    []proofTally
}

// A passCheck is one pass's sample against the ledger.
type passCheck struct {
	Pass     string
	Sampled  int
	Verdicts map[verdict]int
	Missing  []finding // sampled findings without a row or without a verdict
}

// checkLedger gives each sampled finding the verdict of the first row that
// matches it and has one: a table of rows still to fill in, pasted beside
// the filled one, does not hide a verdict.
func checkLedger(rows []row, samples []passSample) *ledgerCheck {
	c := &ledgerCheck{}
	used := make([]bool, len(rows))
	for _, s := range samples {
		pc := passCheck{Pass: s.Pass, Sampled: len(s.Findings), Verdicts: map[verdict]int{}}
		for _, f := range s.Findings {
			v := verdict("")
			for i, r := range rows {
				if r.matches(f) {
					used[i] = true
					v = cmp.Or(v, r.Verdict)
				}
			}
			if v == "" {
				pc.Missing = append(pc.Missing, f)
				continue
			}
			pc.Verdicts[v]++
		}
		c.Passes = append(c.Passes, pc)
	}
	for i, r := range rows {
		switch {
		case r.malformed != "":
			c.Malformed = append(c.Malformed, r)
		case !used[i]:
			c.Unused = append(c.Unused, r)
		}
	}
	return c
}

// ok reports whether every sampled finding has a verdict and every row
// parses. Unused rows are allowed: they are verdicts on another sample.
func (c *ledgerCheck) ok() bool {
	if len(c.Malformed) > 0 {
		return false
	}
	for _, pc := range c.Passes {
		if len(pc.Missing) > 0 {
			return false
		}
	}
	return true
}

// meetsBar reports whether at least nine in ten of the pass's sampled
// findings are worth fixing, once all have a verdict.
func (pc passCheck) meetsBar() bool {
	return len(pc.Missing) == 0 && pc.Verdicts[worthFixing]*10 >= 9*pc.Sampled
}
