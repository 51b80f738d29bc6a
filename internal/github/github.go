// Package github writes findings as GitHub Actions workflow commands
// (::warning file=...,line=...::message), which the runner turns into
// annotations on the pull request's diff and the run's summary.
package github

import (
	"fmt"
	"io"
	"strings"

	"github.com/sendlint/sendlint/internal/finding"
)

// Annotations writes one ::warning command per finding (::notice for an
// audit-tier one). Files are named
// relative to root, the repository's root, as the runner expects; the
// related locations follow the message on lines of their own.
func Annotations(w io.Writer, findings []finding.Finding, root string) {
	for _, f := range findings {
		file, _ := f.Pos.Rel(root)
		props := []string{"file=" + escapeProperty(file)}
		if f.Pos.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Pos.Line))
			if f.Pos.Col > 0 {
				props = append(props, fmt.Sprintf("col=%d", f.Pos.Col))
			}
		}
		props = append(props, "title="+escapeProperty("sendlint "+f.Pass))
		msg := f.Message
		for _, r := range f.Related {
			rfile, _ := r.Pos.Rel(root)
			msg += fmt.Sprintf("\n%s:%d:%d: %s", rfile, r.Pos.Line, r.Pos.Col, r.Message)
		}
		command := "warning"
		if f.Audit {
			command = "notice"
		}
		fmt.Fprintf(w, "::%s %s::%s\n", command, strings.Join(props, ","), escapeData(msg))
	}
}

// Error writes one ::error command.
func Error(w io.Writer, msg string) {
	fmt.Fprintf(w, "::error title=sendlint::%s\n", escapeData(msg))
}

// escapeData escapes a command's message, as the runner decodes it.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a command property's value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
