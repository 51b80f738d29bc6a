package baresend

import "errors"

// An admin shell reads its commands through a line reader on its own
// goroutine, so that a node going down can end the shell while the
// terminal waits for input. The shell asks for each line and waits for
// the answer, a line or an error, before it asks again; the reader
// answers each prompt once. When the shell returns, at most the answer to
// its last prompt is still coming, and it fits in the one slot of its
// channel; the reader then waits for the next prompt until the deferred
// close ends it.
//
// The near misses: a shell that prompts again on a timer without waiting
// for the answer, a reader that answers a failed read twice (an error,
// then an empty line), a reader that greets before the first prompt, and
// a keep-alive goroutine that prompts besides the shell.

var errPromptAborted = errors.New("prompt aborted")

type terminal interface {
	Prompt(p string) (string, error)
}

type adminShell struct {
	term     terminal
	nodeDown chan struct{}
	tick     chan struct{}
	run      func(cmd string)
}

func (sh *adminShell) Interactive() {
	lines := make(chan string, 1)
	errs := make(chan error, 1)
	prompts := make(chan string)
	go sh.readLines(lines, errs, prompts)
	defer close(prompts)
	for {
		prompts <- "> "
		select {
		case <-sh.nodeDown:
			return
		case err := <-errs:
			if err == errPromptAborted {
				continue
			}
			return
		case line := <-lines:
			sh.run(line)
		}
	}
}

func (sh *adminShell) readLines(lines chan<- string, errs chan<- error, prompts <-chan string) {
	for p := range prompts {
		line, err := sh.term.Prompt(p)
		if err != nil {
			errs <- err // ok: one answer per prompt, and the shell asks only after the last
		} else {
			lines <- line // ok: the same
		}
	}
}

func (sh *adminShell) InteractiveTimed() {
	lines := make(chan string, 1)
	prompts := make(chan string)
	go sh.readTimedLines(lines, prompts)
	defer close(prompts)
	for {
		prompts <- "> "
		select {
		case <-sh.nodeDown:
			return
		case <-sh.tick:
			continue // prompts again, with an answer still owed
		case line := <-lines:
			sh.run(line)
		}
	}
}

func (sh *adminShell) readTimedLines(lines chan<- string, prompts <-chan string) {
	for p := range prompts {
		line, _ := sh.term.Prompt(p)
		lines <- line // want `send on lines \(chan<- string, cap 1\) can block forever: \(\*adminShell\)\.InteractiveTimed can return`
	}
}

func (sh *adminShell) InteractiveTwice() {
	lines := make(chan string, 1)
	errs := make(chan error, 1)
	prompts := make(chan string)
	go sh.readLinesTwice(lines, errs, prompts)
	defer close(prompts)
	for {
		prompts <- "> "
		select {
		case <-sh.nodeDown:
			return
		case <-errs:
			return
		case line := <-lines:
			sh.run(line)
		}
	}
}

func (sh *adminShell) readLinesTwice(lines chan<- string, errs chan<- error, prompts <-chan string) {
	for p := range prompts {
		line, err := sh.term.Prompt(p)
		if err != nil {
			errs <- err // want `send on errs \(chan<- error, cap 1\) can block forever: \(\*adminShell\)\.InteractiveTwice can return`
		}
		lines <- line // want `send on lines \(chan<- string, cap 1\) can block forever: \(\*adminShell\)\.InteractiveTwice can return`
	}
}

func (sh *adminShell) InteractiveGreeted() {
	lines := make(chan string, 1)
	prompts := make(chan string)
	go sh.greetAndReadLines(lines, prompts)
	defer close(prompts)
	for {
		prompts <- "> "
		select {
		case <-sh.nodeDown:
			return
		case line := <-lines:
			sh.run(line)
		}
	}
}

func (sh *adminShell) greetAndReadLines(lines chan<- string, prompts <-chan string) {
	lines <- "welcome" // the first value finds the buffer empty
	for p := range prompts {
		line, _ := sh.term.Prompt(p)
		lines <- line // want `send on lines \(chan<- string, cap 1\) can block forever: \(\*adminShell\)\.InteractiveGreeted can return`
	}
}

func (sh *adminShell) InteractiveKeptAlive() {
	lines := make(chan string, 1)
	prompts := make(chan string)
	go sh.readKeptAliveLines(lines, prompts)
	go func() {
		<-sh.tick
		prompts <- "still there? "
	}()
	for {
		prompts <- "> "
		select {
		case <-sh.nodeDown:
			return
		case line := <-lines:
			sh.run(line)
		}
	}
}

func (sh *adminShell) readKeptAliveLines(lines chan<- string, prompts <-chan string) {
	for p := range prompts {
		line, _ := sh.term.Prompt(p)
		lines <- line // want `send on lines \(chan<- string, cap 1\) can block forever: \(\*adminShell\)\.InteractiveKeptAlive can return`
	}
}
