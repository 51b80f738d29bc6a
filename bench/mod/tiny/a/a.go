// Package a is part of the smoke test's target: it imports nothing, so no
// run has anything to compile, and it holds a finding for go vet and
// staticcheck to count.
package a

// Pipe sends v on c.
func Pipe(c chan int, v int) {
	v = v // self-assignment, reported by go vet (assign) and staticcheck (SA4018)
	c <- v
}
