package main

import (
	"slices"
	"testing"
)

// TestGoErrors checks that every error go vet prints is tied to the
// package it belongs to, including those of a command the go command ran
// for that package (pkg-config for a cgo dependency this machine lacks),
// which go vet prints under a header of their own.
func TestGoErrors(t *testing.T) {
	const stderr = `go: downloading example.com/opus v1.0.0
# example.com/demo/broken
vet: broken/broken.go:3:9: undefined: undefinedName
# example.com/media
# [pkg-config --cflags  -- soxr]
Package soxr was not found in the pkg-config search path.
Package 'soxr', required by 'virtual:world', not found
# example.com/other
other/other.go:1:1: expected 'package', found 'EOF'
`
	want := []string{
		"package example.com/demo/broken: broken/broken.go:3:9: undefined: undefinedName",
		"package example.com/media: pkg-config --cflags -- soxr: Package soxr was not found in the pkg-config search path.",
		"package example.com/media: pkg-config --cflags -- soxr: Package 'soxr', required by 'virtual:world', not found",
		"package example.com/other: other/other.go:1:1: expected 'package', found 'EOF'",
	}
	if got := goErrors(stderr); !slices.Equal(got, want) {
		t.Errorf("goErrors:\n got %q\nwant %q", got, want)
	}
}
