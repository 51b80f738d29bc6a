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

// indexer's loop adds to the store, which takes st.Mu in package lib: a
// sender holding st.Mu waits for a loop that waits for st.Mu.
type indexer struct {
	st   *lib.Store
	adds chan int
}

func (x *indexer) loop() {
	for v := range x.adds {
		x.st.Add(v)
	}
}

func (x *indexer) addCrossPackageCycleBad(v int) {
	x.st.Mu.Lock()
	defer x.st.Mu.Unlock()
	x.adds <- v // want `send on x\.adds can block while x\.st\.Mu is held: its receiver \(\*indexer\)\.loop takes x\.st\.Mu too`
}

// measurer's loop asks the store only for what needs no lock.
type measurer struct {
	st   *lib.Store
	adds chan int
}

func (m *measurer) loop() {
	for range m.adds {
		_ = m.st.Cap()
	}
}

func (m *measurer) addNoCycleAudit(v int) {
	m.st.Mu.Lock()
	defer m.st.Mu.Unlock()
	m.adds <- v // want `send on m\.adds can block while m\.st\.Mu is held.*\[audit: no receiver of it is seen to need the lock\]`
}
