// Package locks exercises the held-lock state: each call to held reports
// the keys of the locks held there.
package locks

import "sync"

func held() {}

type S struct {
	mu  sync.Mutex
	pmu *sync.Mutex
	rw  sync.RWMutex
	sync.Mutex
	inner struct{ mu sync.Mutex }
	byID  map[string]*sync.Mutex
}

func (s *S) lockFor(id string) *sync.Mutex { return s.byID[id] }

func spellings(s *S, id string) {
	mu := &s.mu
	mu.Lock()
	held() // want `held: s\.mu`
	s.mu.Unlock()
	held() // want `held: none`

	s.pmu.Lock()
	s.inner.mu.Lock()
	held() // want `held: s\.pmu, s\.inner\.mu`
	s.pmu.Unlock()
	s.inner.mu.Unlock()

	s.Lock() // the embedded mutex: the key is s itself
	var l sync.Locker = s
	held() // want `held: s$`
	l.Unlock()
	held() // want `held: none`

	s.lockFor(id).Lock()
	held() // want `held: \(\*locks\.S\)\.lockFor\(s, id\)`
	s.lockFor(id).Unlock()
	held() // want `held: none`
}

func paths(s *S, a bool) {
	s.mu.Lock()
	if a {
		s.rw.RLock()
		held() // want `held: s\.mu, s\.rw \(read\)`
		s.rw.RUnlock()
	} else {
		s.mu.Unlock()
		held() // want `held: none`
		s.mu.Lock()
	}
	held() // want `held: s\.mu`
	if s.rw.TryLock() {
		held() // want `held: s\.mu, s\.rw`
		s.rw.Unlock()
	}
	defer s.mu.Unlock()
	go func() {
		held() // want `held: none`
	}()
	held() // want `held: s\.mu`
}

// released: the function drops a lock it did not take.
func released(s *S) {
	s.mu.Unlock()
	held() // want `held: none, released`
	s.mu.Lock()
	held() // want `held: s\.mu, released`
}
