package probes

import "testing"

func TestAskOnce(t *testing.T) {
	if got := askOnce(func() string { return "pong" }); got != "pong" {
		t.Errorf("askOnce = %q, want pong", got)
	}
}

// suite runs a test suite when the test binary initializes, as suite
// frameworks do.
func suite(body func()) bool { body(); return true }

var _ = suite(func() {
	_ = askInSuite(func() string { return "pong" })
})
