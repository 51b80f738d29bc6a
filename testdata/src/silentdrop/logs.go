package silentdrop

import (
	"bytes"
	"fmt"
	"log"
	"log/slog"
	"os"
)

type client struct {
	id        string
	responses chan Event
	logger    *slog.Logger
	events    eventLogger
	catalog   *Catalog
	buf       bytes.Buffer
}

// eventLogger is a logger of the package's own: its type name says so.
type eventLogger interface {
	Warnf(format string, args ...any)
}

// Catalog is not a logger, whatever its methods are called.
type Catalog struct{ entries []string }

func (c *Catalog) Print(s string) string { return "catalog: " + s }

func (c *client) stdLogOK(e Event) {
	select {
	case c.responses <- e: // ok: logged
	default:
		log.Printf("client %s not reading; dropped %s", c.id, e.ID)
	}
}

func (c *client) slogOK(e Event) {
	select {
	case c.responses <- e: // ok: logged
	default:
		c.logger.Warn("client not reading; reply dropped", "client", c.id, "event", e.ID)
	}
}

func (c *client) stderrOK(e Event) {
	select {
	case c.responses <- e: // ok: printed to stderr
	default:
		fmt.Fprintf(os.Stderr, "dropped %s\n", e.ID)
	}
}

func (c *client) bufferIsNotALogBad(e Event) {
	select {
	case c.responses <- e: // want `send on c\.responses .* drops the Event without a trace`
	default:
		fmt.Fprintf(&c.buf, "dropped %s\n", e.ID)
	}
}

func (c *client) ownLoggerOK(e Event) {
	select {
	case c.responses <- e: // ok: a level method on a type named like a logger
	default:
		c.events.Warnf("dropped %s", e.ID)
	}
}

// notALoggerBad calls Print on a Catalog, which is not a logger.
func (c *client) notALoggerBad(e Event) {
	select {
	case c.responses <- e: // want `send on c\.responses .* drops the Event without a trace`
	default:
		_ = c.catalog.Print(e.ID)
	}
}

func (c *client) helperLogsOK(e Event) {
	select {
	case c.responses <- e: // ok: noteDrop logs
	default:
		c.noteDrop(e)
	}
}

func (c *client) noteDrop(e Event) {
	c.logger.Warn("reply dropped", "event", e.ID)
}

func (c *client) helperSilentBad(e Event) {
	select {
	case c.responses <- e: // want `send on c\.responses .* drops the Event without a trace`
	default:
		c.ignore(e)
	}
}

func (c *client) ignore(e Event) { _ = e.ID }

func (c *client) otherPackageTypeBad(ch chan *bytes.Buffer, b *bytes.Buffer) {
	select {
	case ch <- b: // want `send on ch \(chan \*bytes\.Buffer\) drops the \*bytes\.Buffer without a trace`
	default:
	}
}
