package probes

import "testing"

func TestAskOnce(t *testing.T) {
	if got := askOnce(func() string { return "pong" }); got != "pong" {
		t.Errorf("askOnce = %q, want pong", got)
	}
}
