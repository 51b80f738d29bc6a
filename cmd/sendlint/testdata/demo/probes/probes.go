// Package probes asks a backend for an answer, giving up after a while.
package probes

import "time"

// askOnce is a helper only this package's tests call: test code, which
// sendlint reports only with -test, though its sender leaks when the
// answer comes late.
func askOnce(backend func() string) string {
	answers := make(chan string)
	go func() { answers <- backend() }()
	select {
	case a := <-answers:
		return a
	case <-time.After(time.Second):
		return ""
	}
}

// askUnused is called by nothing: dead code is not test code, and its
// leak is reported like any other.
func askUnused(backend func() string) string {
	answers := make(chan string)
	go func() { answers <- backend() }()
	select {
	case a := <-answers:
		return a
	case <-time.After(time.Second):
		return ""
	}
}

// askInSuite is called only from a test suite declared as a variable of a
// test file (var _ = suite(...)): test code too.
func askInSuite(backend func() string) string {
	answers := make(chan string)
	go func() { answers <- backend() }()
	select {
	case a := <-answers:
		return a
	case <-time.After(time.Second):
		return ""
	}
}
