// Package debuglog is a project's own logger: a wrapper around the
// standard one that a client library writes its debugging output with.
package debuglog

import (
	"fmt"
	"log"
	"os"
)

var logger = log.New(os.Stderr, "[client] ", log.LstdFlags)

// Printf writes a line through the wrapped logger.
func Printf(format string, args ...any) { logf(format, args...) }

func logf(format string, args ...any) { logger.Printf(format, args...) }

// Describe formats an event for a later line: it writes nothing.
func Describe(id string) string { return fmt.Sprintf("event %s", id) }
