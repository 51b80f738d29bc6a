package baresend

import "testing"

// A test that begins many indices in a loop is not a user of the
// package: Begin stays once per user's call.
func TestWaterMarkBegin(t *testing.T) {
	var w WaterMark
	for i := range 3 {
		w.Begin(uint64(i))
	}
}
