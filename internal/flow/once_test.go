package flow

import (
	"testing"

	"golang.org/x/tools/go/ssa"
)

// A flag that lets a send through once: cleared after it, cleared before
// it, never cleared, set again on another way round the loop, cleared on
// one way on only, and cleared after a loop of sends inside its arm.
const onceSrc = `package p

func cleared(ch chan int, next func() (int, bool)) {
	first := true
	for {
		v, ok := next()
		if !ok {
			return
		}
		if first {
			ch <- v
			first = false
		}
	}
}

func clearedFirst(ch chan int, next func() (int, bool)) {
	seen := false
	for {
		v, ok := next()
		if !ok {
			return
		}
		if !seen {
			seen = true
			ch <- v
		}
	}
}

func uncleared(ch chan int, next func() (int, bool)) {
	first := true
	for {
		v, ok := next()
		if !ok {
			return
		}
		if first {
			ch <- v
		}
	}
}

func setAgain(ch chan int, next func() (int, bool)) {
	first := true
	for {
		v, ok := next()
		if !ok {
			return
		}
		if v == 0 {
			first = true
			continue
		}
		if first {
			ch <- v
			first = false
		}
	}
}

func clearedAfterInnerLoop(ch chan int, next func() (int, bool), xs []int) {
	first := true
	for {
		_, ok := next()
		if !ok {
			return
		}
		if first {
			for _, x := range xs {
				ch <- x
			}
			first = false
		}
	}
}

func clearedOnOneWay(ch chan int, next func() (int, bool)) {
	first := true
	for {
		v, ok := next()
		if !ok {
			return
		}
		if first {
			ch <- v
			if v > 1 {
				first = false
			}
		}
	}
}
`

func TestAtMostOnce(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		want bool
	}{
		{"cleared", true},
		{"clearedFirst", true},
		{"uncleared", false},
		{"setAgain", false},
		{"clearedOnOneWay", false},
		{"clearedAfterInnerLoop", false},
	} {
		fn := build(t, onceSrc, tc.fn)
		var send ssa.Instruction
		for instr := range sends(fn) { // each function sends once
			send = instr
		}
		if got := AtMostOnce(send); got != tc.want {
			t.Errorf("AtMostOnce(send in %s) = %v, want %v", tc.fn, got, tc.want)
		}
		loops := FindLoops(fn)
		trips := func(b *ssa.BasicBlock) int { return loops.Trips(b, nil, 99) }
		want := 99
		if tc.want {
			want = 1
		}
		if got := MaxCount(fn, sends(fn), trips, 99); got != want {
			t.Errorf("MaxCount(%s) = %d, want %d", tc.fn, got, want)
		}
	}
}
