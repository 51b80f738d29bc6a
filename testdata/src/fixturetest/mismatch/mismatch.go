// Package mismatch holds expectations that do not match, so the harness's
// own test can check that it complains.
package mismatch

func sends(a, b chan int) {
	a <- 1 // want "sends: send on z"
	b <- 2
}
