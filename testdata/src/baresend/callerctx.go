package baresend

import (
	"context"
	"errors"
)

var errLoopClosed = errors.New("loop closed")

// A task loop runs submitted tasks one at a time on its own goroutine and
// stops for good once Close closes done. Run hands a task over in a select
// that gives up only on the caller's context: a Run that passed the closed
// check while the loop was busy, or any Run after Close with a context
// that never ends, waits for good.
type TaskLoop struct {
	tasks chan loopTask
	done  chan struct{}
}

type loopTask struct {
	fn   func()
	done chan struct{}
}

func NewTaskLoop() *TaskLoop {
	l := &TaskLoop{tasks: make(chan loopTask), done: make(chan struct{})}
	go l.run()
	return l
}

func (l *TaskLoop) run() {
	for {
		select {
		case <-l.done:
			return
		case t := <-l.tasks:
			t.fn()
			close(t.done)
		}
	}
}

func (l *TaskLoop) Run(ctx context.Context, fn func()) error {
	select {
	case <-l.done:
		return errLoopClosed
	default:
	}
	t := loopTask{fn, make(chan struct{})}
	select {
	case l.tasks <- t: // want `send on l\.tasks gives up only when ctx is done: its receiver \(\*TaskLoop\)\.run stops once done is closed, and this select does not give up on done; a call made after that waits for its caller's context, for good if that never ends`
		<-t.done
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *TaskLoop) Close() { close(l.done) }

// The fixed loop's Run also gives up once the loop is done.
type FixedTaskLoop struct {
	tasks chan func()
	done  chan struct{}
}

func NewFixedTaskLoop() *FixedTaskLoop {
	l := &FixedTaskLoop{tasks: make(chan func()), done: make(chan struct{})}
	go l.run()
	return l
}

func (l *FixedTaskLoop) run() {
	for {
		select {
		case <-l.done:
			return
		case fn := <-l.tasks:
			fn()
		}
	}
}

func (l *FixedTaskLoop) Run(ctx context.Context, fn func()) error {
	select {
	case l.tasks <- fn:
		return nil
	case <-l.done:
		return errLoopClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *FixedTaskLoop) Close() { close(l.done) }

// A worker that gives up on a context of its own may be started again
// with a new one: whether one is running when Submit is called the pass
// cannot tell, and the caller's context is a fair way out.
type CtxWorker struct{ jobs chan func() }

func NewCtxWorker() *CtxWorker { return &CtxWorker{jobs: make(chan func())} }

func (w *CtxWorker) Start(ctx context.Context) {
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case job := <-w.jobs:
				job()
			}
		}
	}()
}

func (w *CtxWorker) Submit(ctx context.Context, job func()) error {
	select {
	case w.jobs <- job:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A loop whose stop channel only the package's tests close never stops in
// the shipped program.
type TestStoppedLoop struct {
	reqs chan int
	quit chan struct{}
}

func NewTestStoppedLoop() *TestStoppedLoop {
	l := &TestStoppedLoop{reqs: make(chan int), quit: make(chan struct{})}
	go l.serve()
	return l
}

func (l *TestStoppedLoop) serve() {
	for {
		select {
		case <-l.quit:
			return
		case <-l.reqs:
		}
	}
}

func (l *TestStoppedLoop) Do(ctx context.Context, n int) error {
	select {
	case l.reqs <- n:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A loop whose Enqueue gives up on the loop's own context, which Close
// cancels together with closing done: once the loop is gone the select
// gives up too.
type ObjCtxLoop struct {
	ctx    context.Context
	cancel context.CancelFunc
	items  chan int
	done   chan struct{}
}

func NewObjCtxLoop() *ObjCtxLoop {
	ctx, cancel := context.WithCancel(context.Background())
	l := &ObjCtxLoop{ctx: ctx, cancel: cancel, items: make(chan int), done: make(chan struct{})}
	go l.loop()
	return l
}

func (l *ObjCtxLoop) loop() {
	for {
		select {
		case <-l.done:
			return
		case <-l.items:
		}
	}
}

func (l *ObjCtxLoop) Enqueue(n int) error {
	select {
	case l.items <- n:
		return nil
	case <-l.ctx.Done():
		return l.ctx.Err()
	}
}

func (l *ObjCtxLoop) Close() {
	l.cancel()
	close(l.done)
}

// A loop that returns on a control value is restarted after it: the
// control channel carries values, so it is no stop signal, and a loop may
// be running when Push is called.
type ResettableLoop struct {
	in   chan int
	ctrl chan struct{}
}

func NewResettableLoop() *ResettableLoop {
	l := &ResettableLoop{in: make(chan int), ctrl: make(chan struct{})}
	go l.run()
	return l
}

func (l *ResettableLoop) run() {
	for {
		select {
		case <-l.ctrl:
			return
		case <-l.in:
		}
	}
}

func (l *ResettableLoop) Reset() {
	l.ctrl <- struct{}{}
	go l.run()
}

func (l *ResettableLoop) Push(ctx context.Context, n int) error {
	select {
	case l.in <- n:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *ResettableLoop) Close() { close(l.ctrl) }

// A loop whose input channel is also handed out may have receivers out of
// sight that outlive it.
type OpenLoop struct {
	in   chan int
	stop chan struct{}
}

func NewOpenLoop() *OpenLoop {
	l := &OpenLoop{in: make(chan int), stop: make(chan struct{})}
	go l.run()
	return l
}

func (l *OpenLoop) run() {
	for {
		select {
		case <-l.stop:
			return
		case <-l.in:
		}
	}
}

func (l *OpenLoop) Input() <-chan int { return l.in }

func (l *OpenLoop) Push(ctx context.Context, n int) error {
	select {
	case l.in <- n:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *OpenLoop) Close() { close(l.stop) }
