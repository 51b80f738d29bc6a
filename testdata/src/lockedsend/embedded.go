package lockedsend

import "sync"

// guarded embeds its mutex: g.Lock() locks it, and so does a sync.Locker
// holding g.
type guarded struct {
	sync.Mutex
	out chan string
}

func embeddedBad(g *guarded) {
	g.Lock()
	g.out <- "x" // want `send on g\.out can block while g is held.*\[audit: `
	g.Unlock()
}

func embeddedUnlockedOK(g *guarded) {
	g.Lock()
	g.Unlock()
	g.out <- "x"
}

func lockerBad(l sync.Locker, out chan string) {
	l.Lock()
	out <- "x" // want `send on out can block while l is held.*\[audit: `
	l.Unlock()
}

func lockerUnlockedOK(l sync.Locker, out chan string) {
	l.Lock()
	l.Unlock()
	out <- "x"
}

// The embedded mutex and the struct as a sync.Locker are one mutex.
func embeddedAsLockerOK(g *guarded) {
	var l sync.Locker = g
	g.Lock()
	l.Unlock()
	g.out <- "x"
}
