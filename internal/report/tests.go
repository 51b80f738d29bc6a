package report

import (
	"flag"
	"go/types"
	"strings"
)

// TestsFlag registers the flag that turns on findings in test code for one
// pass. Every pass registers it, so `-<pass>.tests` works in every driver,
// and the sendlint command's -test sets it for all of them.
func TestsFlag(fs *flag.FlagSet) {
	fs.Bool("tests", false, "also report findings in test code (_test.go files and test-helper packages)")
}

// reportsTests reads the pass's tests flag.
func reportsTests(fs *flag.FlagSet) bool {
	f := fs.Lookup("tests")
	return f != nil && f.Value.String() == "true"
}

// IsTestCode reports whether a finding in file of pkg lies in test code: a
// _test.go file, or a package of test helpers (a name ending in test,
// testutil, testutils or testing: grpctest, httptest, testutils...).
//
// Test code is analysed (its facts and calls count) but not reported by
// default. Measured on the standard library and on grpc, etcd, nats-server
// and raft, nine in ten findings were in tests, and a test that blocks
// fails on its own timeout instead of stalling a server in silence: tests
// hold locks and leave senders behind on purpose.
func IsTestCode(file string, pkg *types.Package) bool {
	if strings.HasSuffix(file, "_test.go") {
		return true
	}
	name := pkg.Name()
	for _, suffix := range []string{"test", "testutil", "testutils", "testing"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}
