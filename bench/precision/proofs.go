package main

import (
	"cmp"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// A default finding's message says why the send blocks: the proof it rests
// on. Tallying the ledger's verdicts per proof, over every default finding
// and not only the sample, shows which proof costs the default tier its
// precision. proofs lists the words each proof's message uses, most
// specific first; a lockedsend message carries its blocking operation's
// proof after "while ... is held:", so it is sorted by the same words.
var proofs = []struct {
	name  string
	words []string
}{
	{"the caller can stop reading", []string{"its receiver is the caller"}},
	{"the owner returns without receiving", []string{"return without receiving", "return before receiving", "return before draining"}},
	{"the receiver is the sending goroutine", []string{"its only receiver,"}},
	{"another send of the package gives up", []string{"other send on it gives up"}},
	{"the reader is abandoned at Close", []string{"which callers stop calling once they call"}},
	{"the receiver can stop", []string{"can stop receiving", "runs only from", "again only on some of its paths"}},
	{"a stream Send under a lock", []string{"stream send"}},
	{"a drop without a trace", []string{"without a trace"}},
}

// capacity finds the capacity a message gives its channel: "(chan T, cap
// 4)", "(chan T, cap len(peers))" or "(chan T, unbuffered)".
var capacity = regexp.MustCompile(`\(chan[^:]*?, (cap [^:]+|unbuffered)\) can block`)

// proofOf names the proof of a finding's message, or "other". For a
// receiver that can stop it adds whether the channel is buffered: a full
// buffer needs more sends after the stop than an empty hand-off does.
func proofOf(message string) string {
	for _, p := range proofs {
		for _, w := range p.words {
			if !strings.Contains(message, w) {
				continue
			}
			if p.name != "the receiver can stop" {
				return p.name
			}
			switch m := capacity.FindStringSubmatch(message); {
			case m == nil:
				return p.name + ", capacity not in the message"
			case m[1] == "unbuffered":
				return p.name + ", unbuffered"
			default:
				return p.name + ", buffered"
			}
		}
	}
	return "other"
}

// A proofTally is the ledger's verdicts on one pass's default findings
// that rest on one proof.
type proofTally struct {
	Pass, Proof string
	Findings    int
	Verdicts    map[verdict]int // findings without a verdict are not counted
}

// tallyProofs groups every default finding by pass and proof, with the
// verdict of the first ledger row that matches it and has one, in pass
// order, then by proof.
func tallyProofs(runs []targetRun, rows []row) []proofTally {
	byKey := map[[2]string]*proofTally{}
	for _, tr := range runs {
		for _, f := range tr.Findings {
			if f.Audit {
				continue
			}
			key := [2]string{f.Pass, proofOf(f.Message)}
			t := byKey[key]
			if t == nil {
				t = &proofTally{Pass: key[0], Proof: key[1], Verdicts: map[verdict]int{}}
				byKey[key] = t
			}
			t.Findings++
			if v := verdictOf(rows, f); v != "" {
				t.Verdicts[v]++
			}
		}
	}
	order := passNames(runs)
	var out []proofTally
	for _, t := range byKey {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b proofTally) int {
		return cmp.Or(cmp.Compare(slices.Index(order, a.Pass), slices.Index(order, b.Pass)), cmp.Compare(a.Proof, b.Proof))
	})
	return out
}

// verdictOf is the verdict of the first row that matches f and has one.
func verdictOf(rows []row, f finding) verdict {
	for _, r := range rows {
		if r.matches(f) && r.Verdict != "" {
			return r.Verdict
		}
	}
	return ""
}

func writeProofs(w io.Writer, tallies []proofTally) {
	fmt.Fprintf(w, "## Default findings by proof\n\n")
	fmt.Fprintf(w, "Every default-tier finding, sorted by the proof its message names, with the ledger's verdicts.\n\n")
	fmt.Fprintf(w, "| pass | proof | findings | worth fixing | worth reading | noise | no verdict |\n")
	fmt.Fprintf(w, "|---|---|--:|--:|--:|--:|--:|\n")
	for _, t := range tallies {
		judged := t.Verdicts[worthFixing] + t.Verdicts[worthReading] + t.Verdicts[noise]
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %d |\n", t.Pass, t.Proof, t.Findings,
			t.Verdicts[worthFixing], t.Verdicts[worthReading], t.Verdicts[noise], t.Findings-judged)
	}
	fmt.Fprintln(w)
}
