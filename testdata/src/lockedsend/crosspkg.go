package lockedsend

import (
	"sync"

	"lockedsend/lib"
)

// The summary crosses packages as a fact on lib's functions.
func libPublishBad(mu *sync.Mutex, q *lib.Queue) {
	mu.Lock()
	q.Publish(1) // want `call to q\.Publish can block while mu is held: \(\*lib\.Queue\)\.Publish → \(\*lib\.Queue\)\.push → send on q\.ch.*\[audit: `
	mu.Unlock()
}

func libLenOK(mu *sync.Mutex, q *lib.Queue) int {
	mu.Lock()
	defer mu.Unlock()
	return q.Len()
}

func libForwardBad(mu *sync.Mutex, r *lib.Relay) error {
	mu.Lock()
	defer mu.Unlock()
	return r.Forward(&lib.Msg{}) // want `call to r\.Forward can block while mu is held: \(\*lib\.Relay\)\.Forward → stream send through r\.Out \(holds s\.Send, taken at lib\.go:\d+\)`
}

// lib's Relay.Out holds a stream's Send; the carrier crosses as a fact.
func libCarrierBad(mu *sync.Mutex, r *lib.Relay) error {
	mu.Lock()
	defer mu.Unlock()
	return r.Out(&lib.Msg{}) // want `stream send through r\.Out \(holds s\.Send, taken in a dependency\) can block while mu is held`
}

func libEnqueueNilOK(mu *sync.Mutex) {
	mu.Lock()
	defer mu.Unlock()
	lib.Enqueue(nil, 1)
}

func libEnqueueBad(mu *sync.Mutex, q chan<- int) {
	mu.Lock()
	defer mu.Unlock()
	lib.Enqueue(q, 1) // want `call to lib\.Enqueue can block while mu is held: lib\.Enqueue → send on q.*\[audit: `
}
