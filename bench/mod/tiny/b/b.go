// Package b gives the smoke test's per-package table a second package, one
// that depends on the first.
package b

import "github.com/sendlint/sendlint/bench/mod/tiny/a"

// Run waits for one value from a.Pipe.
func Run() int {
	c := make(chan int)
	go a.Pipe(c, 1)
	return <-c
}
