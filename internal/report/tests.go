package report

import (
	"flag"
	"go/types"
	"strings"
)

// Flags registers the switches every pass shares, so that `-<pass>.tests`
// and `-<pass>.audit` work in every driver (go vet, golangci-lint, nogo),
// and the sendlint command's -test and -audit set them for all passes.
func Flags(fs *flag.FlagSet) {
	fs.Bool("tests", false, "also report findings in test code (_test.go files and test-helper packages)")
	fs.Bool("audit", false, "also report the audit tier: sends the pass can neither prove to block nor rule out, each labelled with what is missing")
}

// boolFlag reads one of the pass's boolean flags.
func boolFlag(fs *flag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	return f != nil && f.Value.String() == "true"
}

// IsTestCode reports whether a finding in file of pkg lies in test code: a
// _test.go file; a package of test helpers or doubles (a name ending in
// test, testutil, testutils, testhelper(s) or testing: grpctest, httptest;
// or named mock, mocks, fake or fakes); an example or test program (a package below a
// directory named examples, example, test, testing, testdata or e2e, or
// whose name ends in tests: integrationtests, e2etests); or the main
// package go test writes to run a package's tests (path p.test).
//
// Test code is analysed (its facts and calls count) but not reported by
// default. Measured on the standard library and on grpc, etcd, nats-server
// and raft, nine in ten findings were in tests, and a test that blocks
// fails on its own timeout instead of stalling a server in silence: tests
// hold locks and leave senders behind on purpose.
func IsTestCode(file string, pkg *types.Package) bool {
	if strings.HasSuffix(file, "_test.go") || strings.HasSuffix(pkg.Path(), ".test") {
		return true
	}
	name := pkg.Name()
	for _, suffix := range []string{"test", "testutil", "testutils", "testhelper", "testhelpers", "testing"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	switch name {
	case "mock", "mocks", "fake", "fakes":
		return true
	}
	for _, elem := range strings.Split(pkg.Path(), "/") {
		switch elem {
		case "examples", "example", "test", "testing", "testdata", "e2e":
			return true
		}
		if strings.HasSuffix(elem, "tests") {
			return true
		}
	}
	return false
}

// IsTestHook reports whether a function is a hook for tests in shipped
// code: its name ends in ForTesting or ForTest (getOutStreamForTesting), a
// convention for code that only tests call.
func IsTestHook(name string) bool {
	return strings.HasSuffix(name, "ForTesting") || strings.HasSuffix(name, "ForTest")
}
