package baresend

import "testing"

// A test runs a discovery by hand, on its own goroutine: that is not how
// the shipped consumer runs it, and it does not make discover's sends any
// less the monitor's.
func TestPatternDiscovery(t *testing.T) {
	c := NewPatternConsumer()
	defer c.Close()
	c.discover()
}
