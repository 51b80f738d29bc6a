package triage

import "strings"

// Kind is what a blocked goroutine waits on.
type Kind int

// Kinds of wait. A goroutine that is running, runnable, in a system call or
// asleep is not blocked (Running).
const (
	Running Kind = iota
	Send
	Select
	Receive
	Mutex
	RWMutex
	WaitGroup
	IOWait
	OtherWait
)

// Blocking reports whether a goroutine of kind k is parked.
func (k Kind) Blocking() bool { return k != Running }

// Lock reports whether k is a wait for a mutex.
func (k Kind) Lock() bool { return k == Mutex || k == RWMutex }

// kindOf classifies the runtime's wait reason (runtime/runtime2.go's
// waitReasonStrings), as printed in a dump.
func kindOf(state string) Kind {
	switch {
	case strings.HasPrefix(state, "chan send"):
		return Send
	case strings.HasPrefix(state, "select"):
		return Select
	case strings.HasPrefix(state, "chan receive"):
		return Receive
	case state == "sync.Mutex.Lock":
		return Mutex
	case strings.HasPrefix(state, "sync.RWMutex."):
		return RWMutex
	case state == "sync.WaitGroup.Wait":
		return WaitGroup
	case state == "IO wait":
		return IOWait
	case state == "", state == "running", state == "runnable", state == "syscall",
		state == "sleep", state == "idle", strings.HasSuffix(state, "(idle)"),
		state == "GC worker (idle)", state == "dead", state == "copystack", state == "preempted":
		return Running
	}
	return OtherWait
}

// stateFromFrames infers the state of a goroutine of a debug=1 profile,
// which prints none, from the functions on its stack. Channel operations
// leave no frame of their own there (the runtime's are left out): their
// state comes from the source line instead, see stateFromSource.
func stateFromFrames(frames []Frame) string {
	for _, f := range frames {
		switch f.Func {
		case "runtime.chansend1", "runtime.chansend":
			return "chan send"
		case "runtime.chanrecv1", "runtime.chanrecv2", "runtime.chanrecv":
			return "chan receive"
		case "runtime.selectgo", "runtime.block":
			return "select"
		case "sync.(*Mutex).Lock", "internal/sync.(*Mutex).Lock", "internal/sync.(*Mutex).lockSlow":
			return "sync.Mutex.Lock"
		case "sync.(*RWMutex).Lock":
			return "sync.RWMutex.Lock"
		case "sync.(*RWMutex).RLock":
			return "sync.RWMutex.RLock"
		case "sync.(*WaitGroup).Wait":
			return "sync.WaitGroup.Wait"
		case "internal/poll.runtime_pollWait":
			return "IO wait"
		}
	}
	return ""
}
