// Package gokit starts work on goroutines of its own: GoSafe runs fn on a
// new goroutine and keeps a panic in it from taking the process down.
package gokit

func GoSafe(fn func()) {
	go func() {
		defer func() { _ = recover() }()
		fn()
	}()
}
