package baresend

import "testing"

func TestLoops(t *testing.T) {
	l := newTestOnlyLoop()
	l.RequestTestStopAudit(1)
	l.close()

	h := newHandedLoop()
	h.PutHandedStopBad(1)
	Shut(h.done)
}

func TestExportedLoop(t *testing.T) {
	l := NewExportedLoop()
	l.PutExportedStopBad(1)
	close(l.Done)
}
