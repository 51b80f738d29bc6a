package baresend

import (
	"context"
	"errors"
	"sync"
)

// A controller manager runs its runnables on goroutines that report their
// errors on the manager's one-slot error channel. Start waits for the
// first error or for its context; it runs once per manager, behind a
// started flag tested and set under the manager's lock, so once it has
// returned nothing takes from the channel again, and a second runnable
// that fails waits on its send for good.

var errStarted = errors.New("manager already started")

type runnableGroup struct {
	errs chan error
}

func (g *runnableGroup) run(starts []func() error) {
	for _, start := range starts {
		go func() {
			if err := start(); err != nil {
				g.errs <- err // want `send on g\.errs \(chan error, cap 1\) can block forever: its receiver \(\*ctrlManager\)\.Start can stop receiving`
			}
		}()
	}
}

type ctrlManager struct {
	mu       sync.Mutex
	started  bool
	errs     chan error
	runnable *runnableGroup
}

// NewCtrlManager makes the manager and its error channel together.
func NewCtrlManager() *ctrlManager {
	errs := make(chan error, 1)
	return &ctrlManager{errs: errs, runnable: &runnableGroup{errs: errs}}
}

func (m *ctrlManager) Start(ctx context.Context, starts []func() error) error {
	m.mu.Lock()
	if m.started {
		m.mu.Unlock()
		return errStarted
	}
	m.started = true
	m.mu.Unlock()
	m.runnable.run(starts)
	select {
	case <-ctx.Done():
		return nil
	case err := <-m.errs:
		return err
	}
}

// restartableManager lets Reset clear its flag: Start can run again for
// the same channel. Audited.
type restartableManager struct {
	mu      sync.Mutex
	started bool
	errs    chan error
	group   *runnableGroupB
}

type runnableGroupB struct{ errs chan error }

func (g *runnableGroupB) run(starts []func() error) {
	for _, start := range starts {
		go func() {
			if err := start(); err != nil {
				g.errs <- err // want `send on g\.errs .* \[audit: its receiver \(\*restartableManager\)\.Start can stop waiting, but may run again for the same channel\]`
			}
		}()
	}
}

func NewRestartableManager() *restartableManager {
	errs := make(chan error, 1)
	return &restartableManager{errs: errs, group: &runnableGroupB{errs: errs}}
}

func (m *restartableManager) Reset() {
	m.mu.Lock()
	m.started = false
	m.mu.Unlock()
}

func (m *restartableManager) Start(ctx context.Context, starts []func() error) error {
	m.mu.Lock()
	if m.started {
		m.mu.Unlock()
		return errStarted
	}
	m.started = true
	m.mu.Unlock()
	m.group.run(starts)
	select {
	case <-ctx.Done():
		return nil
	case err := <-m.errs:
		return err
	}
}

// racyManager tests its flag without the lock: two Starts at once can both
// get past it. Audited.
type racyManager struct {
	started bool
	errs    chan error
	group   *runnableGroupC
}

type runnableGroupC struct{ errs chan error }

func (g *runnableGroupC) run(starts []func() error) {
	for _, start := range starts {
		go func() {
			if err := start(); err != nil {
				g.errs <- err // want `send on g\.errs .* \[audit: its receiver \(\*racyManager\)\.Start can stop waiting, but may run again for the same channel\]`
			}
		}()
	}
}

func NewRacyManager() *racyManager {
	errs := make(chan error, 1)
	return &racyManager{errs: errs, group: &runnableGroupC{errs: errs}}
}

func (m *racyManager) Start(ctx context.Context, starts []func() error) error {
	if m.started {
		return errStarted
	}
	m.started = true
	m.group.run(starts)
	select {
	case <-ctx.Done():
		return nil
	case err := <-m.errs:
		return err
	}
}

// sharedManager is handed its error channel by the caller, who may hand
// the same one to several managers. Audited.
type sharedManager struct {
	mu      sync.Mutex
	started bool
	errs    chan error
	group   *runnableGroupD
}

type runnableGroupD struct{ errs chan error }

func (g *runnableGroupD) run(starts []func() error) {
	for _, start := range starts {
		go func() {
			if err := start(); err != nil {
				g.errs <- err // want `send on g\.errs .* \[audit: its receiver \(\*sharedManager\)\.Start can stop waiting, but may run again for the same channel\]`
			}
		}()
	}
}

func newSharedManager(errs chan error) *sharedManager {
	return &sharedManager{errs: errs, group: &runnableGroupD{errs: errs}}
}

func NewSharedManagers() (*sharedManager, *sharedManager) {
	errs := make(chan error, 1)
	return newSharedManager(errs), newSharedManager(errs)
}

func (m *sharedManager) Start(ctx context.Context, starts []func() error) error {
	m.mu.Lock()
	if m.started {
		m.mu.Unlock()
		return errStarted
	}
	m.started = true
	m.mu.Unlock()
	m.group.run(starts)
	select {
	case <-ctx.Done():
		return nil
	case err := <-m.errs:
		return err
	}
}
