// Package iterate sends inside range-over-func loops.
package iterate

import "iter"

// Numbers yields 0..n-1.
func Numbers(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// Sink receives numbers for a consumer that may stop reading.
type Sink struct{ out chan int }

// Fill sends every number to the sink's channel from inside the loop body,
// which the compiler turns into a closure.
func (s *Sink) Fill(n int) {
	for v := range Numbers(n) {
		s.out <- v
	}
}
