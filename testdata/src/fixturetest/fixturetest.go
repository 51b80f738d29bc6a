// Package fixturetest exercises the combined fixture harness itself.
package fixturetest

func sends(a, b chan int) {
	a <- 1 // want "sends: send on a" "counts: one send"
	b <- 2 // want "sends: send on b"
	close(a)
}
