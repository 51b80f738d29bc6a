package triage

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// parseStacks reads a dump that prints each goroutine with its state: the
// goroutine profile and the leak profile at debug=2, and what the runtime
// prints on a panic, a fatal error or SIGQUIT:
//
//	goroutine 7 [chan send, 3 minutes]:
//	example.com/m/hub.(*Hub).Publish(...)
//		/src/m/hub/hub.go:35
//	main.main.gowrap1()
//		/src/m/main.go:20 +0x25
//	created by main.main in goroutine 1
//		/src/m/main.go:20 +0x1f
//
// Lines before the first goroutine (a panic message, the signal) are
// skipped. The dump ends at the first line after a goroutine that neither
// continues it nor starts the next one (a register dump, "exit status 2").
// A dump indented as a whole (pasted into a log) is read at the indentation
// of its first goroutine. A dump cut short (the end of a log) keeps what it
// has; a goroutine whose stack breaks off into other text is an error.
//
// The reader is sendlint's own rather than a library's: a library that
// pulls in os/user links the C runtime into the binary, and every process
// go vet -vettool starts then pays for the dynamic loader.
func parseStacks(data []byte) ([]Goroutine, error) {
	r := stackReader{}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\r\n")
		if err := r.line(line); err != nil {
			return nil, err
		}
		if r.state == stacksDone {
			break
		}
	}
	return r.gs, nil
}

// stacksState is where the reader stands: what the next line may be.
type stacksState int

const (
	stacksLooking      stacksState = iota // before the first goroutine
	stacksAfterHeader                     // a function, or "stack unavailable"
	stacksAfterFunc                       // the function's file and line
	stacksAfterFile                       // another function, "created by", elided frames, or a blank line
	stacksAfterCreated                    // the creating statement's file and line
	stacksEnd                             // a blank line: this goroutine has ended
	stacksBetween                         // the next goroutine's header, or the end
	stacksDone
)

type stackReader struct {
	state  stacksState
	indent string // the first header's indentation, which every line shares
	gs     []Goroutine
}

func (r *stackReader) cur() *Goroutine { return &r.gs[len(r.gs)-1] }

func (r *stackReader) line(line string) error {
	if r.state != stacksLooking && line != "" {
		rest, ok := strings.CutPrefix(line, r.indent)
		if !ok {
			r.state = stacksDone
			return nil
		}
		line = rest
	}
	switch r.state {
	case stacksLooking, stacksBetween:
		indent, g, ok := parseHeader(line)
		switch {
		case ok && (r.state == stacksLooking || indent == ""):
			if r.state == stacksLooking {
				r.indent = indent
			}
			r.gs = append(r.gs, g)
			r.state = stacksAfterHeader
		case r.state == stacksBetween:
			r.state = stacksDone
		}
	case stacksAfterHeader:
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "goroutine running on other thread; stack unavailable") {
			r.state = stacksEnd
			return nil
		}
		return r.function(line)
	case stacksAfterFunc:
		f := &r.cur().Frames[len(r.cur().Frames)-1]
		file, n, ok := parseFileLine(line)
		if !ok {
			return fmt.Errorf("goroutine %d: want the file and line of %s, got %q", r.cur().ID, f.Func, strings.TrimSpace(line))
		}
		f.File, f.Line = file, n
		r.state = stacksAfterFile
	case stacksAfterFile:
		switch {
		case strings.HasPrefix(line, "created by "):
			r.state = stacksAfterCreated
		case isElided(line):
		case line == "":
			r.state = stacksBetween
		case isFunctionLine(line):
			return r.function(line)
		default:
			r.state = stacksDone
		}
	case stacksAfterCreated:
		if _, _, ok := parseFileLine(line); !ok {
			return fmt.Errorf("goroutine %d: want the file and line of the go statement, got %q", r.cur().ID, strings.TrimSpace(line))
		}
		r.state = stacksEnd
	case stacksEnd:
		switch {
		case line == "":
			r.state = stacksBetween
		case strings.HasPrefix(line, "created by "):
			r.state = stacksAfterCreated
		default:
			r.state = stacksDone
		}
	}
	return nil
}

// function adds the frame a function line names: "pkg.fn(args)".
func (r *stackReader) function(line string) error {
	g := r.cur()
	if !isFunctionLine(line) {
		return fmt.Errorf("goroutine %d: want a function, got %q", g.ID, strings.TrimSpace(line))
	}
	fn, pkg, err := splitFunc(line[:strings.LastIndexByte(line, '(')])
	if err != nil {
		return fmt.Errorf("goroutine %d: %v", g.ID, err)
	}
	g.Frames = append(g.Frames, Frame{Func: fn, Pkg: pkg})
	r.state = stacksAfterFunc
	return nil
}

// parseHeader reads "goroutine 7 [chan send, 3 minutes]:", where the crash
// form adds "gp=0xc000102000 m=nil" after the id and the brackets may also
// hold "locked to thread". It returns the line's indentation.
func parseHeader(line string) (indent string, g Goroutine, ok bool) {
	body := strings.TrimLeft(line, " \t")
	indent = line[:len(line)-len(body)]
	rest, ok := strings.CutPrefix(body, "goroutine ")
	if !ok || !strings.HasSuffix(rest, "]:") {
		return "", g, false
	}
	open := strings.Index(rest, " [")
	if open < 0 {
		return "", g, false
	}
	fields := strings.Fields(rest[:open])
	if len(fields) == 0 {
		return "", g, false
	}
	id, err := strconv.Atoi(fields[0])
	if err != nil || id < 0 {
		return "", g, false
	}
	for _, f := range fields[1:] {
		if !strings.Contains(f, "=") {
			return "", g, false // not gp=, m=, mp=
		}
	}
	items := strings.Split(rest[open+2:len(rest)-2], ", ")
	g = Goroutine{ID: id, Count: 1}
	g.State, g.Leaked = cleanState(items[0])
	for _, it := range items[1:] {
		if m, ok := strings.CutSuffix(it, " minutes"); ok {
			if n, err := strconv.Atoi(m); err == nil {
				g.Minutes = n
			}
		}
	}
	return indent, g, true
}

// isFunctionLine reports whether line can name a frame's function: a name
// followed by its arguments in parentheses, "(...)" when inlined.
func isFunctionLine(line string) bool {
	return strings.HasSuffix(line, ")") && strings.LastIndexByte(line, '(') > 0
}

// parseFileLine reads a frame's location, "\t/src/m/hub/hub.go:35 +0x1d",
// where the crash form adds "fp=0x... sp=0x... pc=0x...".
func parseFileLine(line string) (file string, n int, ok bool) {
	loc := strings.TrimLeft(line, " \t")
	if loc == line || loc == "" {
		return "", 0, false // a location is always indented
	}
	for {
		i := strings.LastIndexByte(loc, ' ')
		if i < 0 {
			break
		}
		last := loc[i+1:]
		if !strings.HasPrefix(last, "+0x") && !strings.HasPrefix(last, "fp=") &&
			!strings.HasPrefix(last, "sp=") && !strings.HasPrefix(last, "pc=") {
			break
		}
		loc = loc[:i]
	}
	colon := strings.LastIndexByte(loc, ':')
	if colon <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(loc[colon+1:])
	if err != nil {
		return "", 0, false
	}
	return loc[:colon], n, true
}

// isElided reports whether line is the runtime's note that it left frames
// out: "...additional frames elided..." or "...12 frames elided...".
func isElided(line string) bool {
	return strings.HasPrefix(line, "...") && strings.HasSuffix(line, " elided...")
}

// splitFunc returns a function's name as a dump prints it, unescaped, and
// its import path. The path ends at the first dot after its last slash,
// and the linker escapes the dots of its last element:
// "gopkg.in/yaml%2ev2.(*T).M" is package gopkg.in/yaml.v2. A name with no
// slash and no dot ("panic") has no path.
func splitFunc(raw string) (fn, pkg string, err error) {
	end := strings.IndexByte(raw, '.')
	if slash := strings.LastIndexByte(raw, '/'); slash >= 0 {
		dot := strings.IndexByte(raw[slash+1:], '.')
		if dot < 0 {
			return "", "", fmt.Errorf("function %q: no dot after the import path", raw)
		}
		end = slash + 1 + dot
	}
	if end < 0 {
		return raw, "", nil
	}
	pkg, err = url.PathUnescape(raw[:end])
	if err != nil {
		return "", "", fmt.Errorf("function %q: %v", raw, err)
	}
	return pkg + raw[end:], pkg, nil
}
