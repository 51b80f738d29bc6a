package silentdrop

import "sync"

// Logger is a server's logger interface, as nats-server declares its own.
type Logger interface {
	Warnf(format string, v ...any)
}

type server struct {
	logging struct {
		sync.RWMutex
		logger Logger
	}
	replies map[string]func(msg []byte)
}

// Warnf logs through whatever logger is configured, by a closure handed to
// executeLogCall.
func (s *server) Warnf(format string, v ...any) {
	s.executeLogCall(func(logger Logger, format string, v ...any) {
		logger.Warnf(format, v...)
	}, format, v...)
}

func (s *server) executeLogCall(f func(logger Logger, format string, v ...any), format string, args ...any) {
	s.logging.RLock()
	defer s.logging.RUnlock()
	if s.logging.logger == nil {
		return
	}
	f(s.logging.logger, format, args...)
}

// collectOK: the reply handler warns through the server's logger.
func (s *server) collectOK(inbox string, n int) chan *Event {
	rc := make(chan *Event, n)
	s.replies[inbox] = func(msg []byte) {
		e := &Event{Body: msg}
		select {
		case rc <- e: // ok: warned through a helper, a closure and the Logger interface
		default:
			s.Warnf("Failed placing result on internal channel")
		}
	}
	return rc
}
