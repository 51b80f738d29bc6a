// Package demo is an example program: test code, not reported by default.
package demo

func run() {}
