package baresend

import (
	"context"
	"sync"
)

// A span processor's Shutdown: a helper makes the channel and the func
// that answers on it, and hands both back; Shutdown starts the func and
// waits for its answer or for its context. When the context ends first,
// Shutdown returns and the exporter's goroutine waits on its send for
// good.
type spanExporter interface {
	Shutdown(ctx context.Context) error
}

type simpleProcessor struct {
	mu       sync.Mutex
	stopOnce sync.Once
	exporter spanExporter
}

func (p *simpleProcessor) Shutdown(ctx context.Context) error {
	var err error
	p.stopOnce.Do(func() {
		stopFunc := func(exp spanExporter) (<-chan error, func()) {
			done := make(chan error)
			return done, func() { done <- exp.Shutdown(ctx) } // want `send on done \(chan error, unbuffered\) can block forever: the function literal in \(\*simpleProcessor\)\.Shutdown can return without receiving it$`
		}
		p.mu.Lock()
		done, shutdown := stopFunc(p.exporter)
		p.exporter = nil
		p.mu.Unlock()

		go shutdown()

		select {
		case err = <-done:
		case <-ctx.Done():
			select {
			case err = <-done:
			default:
				err = ctx.Err()
			}
		}
	})
	return err
}

// The same with a package-level helper.
func exportShutdown(ctx context.Context, exp spanExporter) (<-chan error, func()) {
	done := make(chan error)
	return done, func() { done <- exp.Shutdown(ctx) } // want `send on done \(chan error, unbuffered\) can block forever: \(\*batchProcessor\)\.Shutdown can return without receiving it$`
}

type batchProcessor struct{ exporter spanExporter }

func (p *batchProcessor) Shutdown(ctx context.Context) error {
	done, shutdown := exportShutdown(ctx, p.exporter)
	go shutdown()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Fixed: the channel has a slot for the one answer, which waits there
// for a caller that has gone.
func bufferedShutdown(ctx context.Context, exp spanExporter) (<-chan error, func()) {
	done := make(chan error, 1)
	return done, func() { done <- exp.Shutdown(ctx) } // ok: a slot for the one answer
}

type bufferedProcessor struct{ exporter spanExporter }

func (p *bufferedProcessor) Shutdown(ctx context.Context) error {
	done, shutdown := bufferedShutdown(ctx, p.exporter)
	go shutdown()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A caller that waits for the answer on every way out.
func waitedShutdown(ctx context.Context, exp spanExporter) (<-chan error, func()) {
	done := make(chan error)
	return done, func() { done <- exp.Shutdown(ctx) } // ok: ForceShutdown always receives
}

type patientProcessor struct{ exporter spanExporter }

func (p *patientProcessor) ForceShutdown(ctx context.Context) error {
	done, shutdown := waitedShutdown(ctx, p.exporter)
	go shutdown()
	return <-done
}

// A caller that runs the func on its own goroutine, as it returns, with
// no receive at all: that send waits for good too, but this rule judges
// only a func started as a goroutine, and no rule yet judges this one.
func calledShutdown(ctx context.Context, exp spanExporter) (<-chan error, func()) {
	done := make(chan error)
	return done, func() { done <- exp.Shutdown(ctx) } // not judged: the caller runs it on its own goroutine
}

type inlineProcessor struct{ exporter spanExporter }

func (p *inlineProcessor) Shutdown(ctx context.Context) {
	_, shutdown := calledShutdown(ctx, p.exporter)
	defer shutdown()
}
