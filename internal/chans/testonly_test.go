package chans

import "testing"

func TestServesTests(t *testing.T) {
	for name, want := range map[string]bool{
		"NewTestSampler":      true,
		"newTestServer":       true,
		"testHook":            true,
		"queueForTest":        true,
		"withHooksForTesting": true,
		"Test":                true,
		"Latest":              false,
		"Testament":           false,
		"tests":               false,
		"attestPeer":          false,
		"newFeedLatest":       false,
		"Contest":             false,
	} {
		if got := servesTests(name); got != want {
			t.Errorf("servesTests(%q) = %v, want %v", name, got, want)
		}
	}
}
