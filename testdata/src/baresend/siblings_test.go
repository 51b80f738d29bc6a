package baresend

import "testing"

// Only this test closes the feed's stop channel: in the shipped program
// the feed's other send never gives up, and it says nothing of who reads.
func TestTickerFeedStop(t *testing.T) {
	f := NewTickerFeed()
	close(f.stop)
	f.offer(1)
}

// Only this test stops the loop.
func TestStoppedLoopQuit(t *testing.T) {
	l := NewTestStoppedLoop()
	close(l.quit)
}
