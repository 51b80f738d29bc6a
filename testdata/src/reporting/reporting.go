// Package reporting exercises internal/report with a test analyzer that
// reports every function by name and panics on the one named explode.
package reporting

import "testing"

func explode() {} // want `internal error: baresend failed on reporting.explode: boom \(at .*report_test.go:\d+\); please report it`

func fine() {} // want `function fine`

//sendlint:ignore baresend this one is known and accepted
func ignoredAbove() {}

func ignoredOnLine() {} //sendlint:ignore baresend accepted here too

//sendlint:ignore lockedsend names another pass, so baresend still reports
func otherPass() {} // want `function otherPass`

//sendlint:ignore baresend nothing on the next line is reported // want `//sendlint:ignore directive suppresses no baresend finding`

var x = 1

// A hook only tests call is test code in a shipped file.
func setClockForTesting() {}

// A double that fails its test through the test's T, in a shipped file,
// runs only under go test.
type mockNotifier struct{ t *testing.T }

func (m *mockNotifier) notify() { m.t.Helper() }

// Code that asks whether it runs under a test runs in production too.
func underTest() bool { return testing.Testing() } // want `function underTest`
