package triage

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// parseDebug1 reads a count profile at debug=1:
//
//	goroutine profile: total 20
//	8 @ 0x48440e 0x41719c 0x416d97 0x51ef92 0x48b301
//	#	0x51ef91	example.com/m/hub.(*Hub).Publish+0x31	/src/m/hub/hub.go:35
//	# labels: {"k":"v"}
//
// It prints no state, no wait time and no goroutine id; the runtime's own
// frames (runtime.chansend1, runtime.selectgo) are left out too.
func parseDebug1(data []byte) (*Dump, error) {
	d := &Dump{Format: FormatDebug1}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case n == 1, line == "", strings.HasPrefix(line, "# labels:"):
		case strings.HasPrefix(line, "#"):
			if len(d.Goroutines) == 0 {
				return nil, fmt.Errorf("line %d: a frame before any stack", n)
			}
			f, err := debug1Frame(line)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			g := &d.Goroutines[len(d.Goroutines)-1]
			g.Frames = append(g.Frames, f)
		default:
			count, _, ok := strings.Cut(line, " @ ")
			c, err := strconv.Atoi(count)
			if !ok || err != nil || c <= 0 {
				return nil, fmt.Errorf("line %d: want \"N @ 0x...\" or a \"#\" frame, got %q", n, line)
			}
			d.Goroutines = append(d.Goroutines, Goroutine{Count: c})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(d.Goroutines) == 0 {
		return nil, fmt.Errorf("the profile holds no stacks")
	}
	return d, nil
}

// debug1Frame parses "#\t0x51ef91\tpkg.fn+0x31\t/file.go:35".
func debug1Frame(line string) (Frame, error) {
	fields := strings.Fields(strings.TrimPrefix(line, "#"))
	if len(fields) < 3 {
		return Frame{}, fmt.Errorf("want \"# pc func+off file:line\", got %q", line)
	}
	fn := fields[1]
	if i := strings.LastIndex(fn, "+0x"); i > 0 {
		fn = fn[:i]
	}
	loc := strings.Join(fields[2:], " ")
	colon := strings.LastIndex(loc, ":")
	ln, err := strconv.Atoi(loc[colon+1:])
	if colon < 0 || err != nil {
		return Frame{}, fmt.Errorf("want file:line, got %q", loc)
	}
	name, pkg, err := splitFunc(fn)
	if err != nil {
		return Frame{}, err
	}
	return Frame{Func: name, Pkg: pkg, File: loc[:colon], Line: ln}, nil
}
