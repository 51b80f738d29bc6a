package triage

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The fixtures in testdata/dumps are real dumps of testdata/dumpgen, a hub
// wedged by a client that never reads (testdata/dumpgen/gen.sh made them):
// Run parked on its send to the client, 8 publishers behind it, 2 Offers
// in a select, 3 Counts on the hub's mutex, 2 Reports on an RWMutex.

func readFixture(t *testing.T, name string) *Dump {
	t.Helper()
	d, err := ReadFile(filepath.Join("testdata", "dumps", name))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// count counts the goroutines whose innermost frames include fn, by state.
func count(d *Dump, fn string) map[string]int {
	n := make(map[string]int)
	for _, g := range d.Goroutines {
		for _, f := range g.Frames {
			if f.Func == fn {
				n[g.State] += g.Count
				break
			}
		}
	}
	return n
}

func TestParseFormats(t *testing.T) {
	for _, tc := range []struct {
		file, format string
		withState    bool // the format prints states
		leaked       bool
	}{
		{"debug2.txt", FormatDebug2, true, false},
		{"trimpath.txt", FormatDebug2, true, false},
		{"sigquit.txt", FormatTraceback, true, false},
		{"panic.txt", FormatTraceback, true, false},
		{"leak2.txt", FormatLeak2, true, true},
		{"debug1.txt", FormatDebug1, false, false},
		{"leak1.txt", FormatLeak1, false, false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d := readFixture(t, tc.file)
			if d.Format != tc.format {
				t.Errorf("format %q, want %q", d.Format, tc.format)
			}
			state := func(s string) string {
				if tc.withState {
					return s
				}
				return ""
			}
			for fn, want := range map[string]map[string]int{
				"example.com/dumpgen/hub.(*Hub).Publish": {state("chan send"): 8},
				"example.com/dumpgen/hub.(*Hub).Run":     {state("chan send"): 1},
				"example.com/dumpgen/hub.(*Hub).Offer":   {state("select"): 2},
				"example.com/dumpgen/hub.(*Hub).Count":   {state("sync.Mutex.Lock"): 3},
				"example.com/dumpgen/hub.(*Hub).Report":  {state("sync.RWMutex.RLock"): 2},
			} {
				got := count(d, fn)
				if len(got) != 1 || got[firstKey(want)] != want[firstKey(want)] {
					t.Errorf("%s: %v, want %v", fn, got, want)
				}
			}
			leaked := 0
			for _, g := range d.Goroutines {
				if g.Leaked {
					leaked += g.Count
				}
			}
			if tc.leaked != (leaked > 0) {
				t.Errorf("%d leaked goroutines, want some: %v", leaked, tc.leaked)
			}
		})
	}
}

func firstKey(m map[string]int) string {
	for k := range m {
		return k
	}
	return ""
}

// TestParseFrames checks what a frame holds in each path layout.
func TestParseFrames(t *testing.T) {
	for file, wantSuffix := range map[string]string{
		"debug2.txt":   "/ci/src/dumpgen/hub/hub.go",
		"debug1.txt":   "/ci/src/dumpgen/hub/hub.go",
		"trimpath.txt": "example.com/dumpgen/hub/hub.go",
	} {
		d := readFixture(t, file)
		var f *Frame
		for _, g := range d.Goroutines {
			for i := range g.Frames {
				if g.Frames[i].Func == "example.com/dumpgen/hub.(*Hub).Publish" {
					f = &g.Frames[i]
				}
			}
		}
		if f == nil || f.Pkg != "example.com/dumpgen/hub" || f.Line != 35 || !strings.HasSuffix(f.File, wantSuffix) {
			t.Errorf("%s: Publish frame %+v, want package example.com/dumpgen/hub, line 35, file ending in %s", file, f, wantSuffix)
		}
		if file == "trimpath.txt" && f != nil && f.File != wantSuffix {
			t.Errorf("trimpath: file %q, want %q", f.File, wantSuffix)
		}
	}
}

func TestParseWaitMinutes(t *testing.T) {
	first, second := readFixture(t, "interval1.txt"), readFixture(t, "interval2.txt")
	longest := func(d *Dump) int {
		m := 0
		for _, g := range d.Goroutines {
			m = max(m, g.Minutes)
		}
		return m
	}
	if longest(first) != 0 || longest(second) != 1 {
		t.Errorf("longest waits %d and %d minutes, want 0 and 1", longest(first), longest(second))
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"empty.txt", "", "empty.txt: not a goroutine dump"},
		{"log.txt", "2024/01/01 server started\nlistening on :8080\n", "log.txt: not a goroutine dump"},
		{"bad1.txt", "goroutine profile: total 3\n3 @ 0x1 0x2\n#\t0x1\n", "bad1.txt: line 3: want \"# pc func+off file:line\""},
		{"bad1count.txt", "goroutine profile: total 3\nthree @ 0x1\n", "bad1count.txt: line 2: want \"N @ 0x...\""},
		{"nostack.txt", "goroutine profile: total 0\n", "nostack.txt: the profile holds no stacks"},
		{"frameless.txt", "goroutine profile: total 1\n#\t0x1\tmain.f+0x1\t/a.go:3\n", "frameless.txt: line 2: a frame before any stack"},
	} {
		_, err := Parse(tc.name, []byte(tc.data))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line starting %q", tc.name, err, tc.want)
		}
	}
	if _, err := ReadFile(filepath.Join("testdata", "missing.txt")); err == nil || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("missing file: %v", err)
	}
}

// TestParseStacks checks the forms of a dump with states that the fixtures
// do not show: the crash header, several bracket items, an escaped import
// path, elided frames, a stack on another thread, CRLF line ends, and the
// text around a traceback.
func TestParseStacks(t *testing.T) {
	dump := "panic: boom\n\n" +
		"goroutine 1 gp=0xc000002380 m=0 mp=0x5a1b00 [chan send, 7 minutes, locked to thread]:\n" +
		"gopkg.in/yaml%2ev2.(*T).M(0x1, {0x2, 0x3})\n\t/x/y.go:3 +0x1 fp=0xc sp=0xd pc=0xe\n" +
		"...additional frames elided...\n" +
		"created by main.f in goroutine 2\n\t/x/z.go:4 +0x5\n\n" +
		"goroutine 2 [running]:\n\tgoroutine running on other thread; stack unavailable\n\n" +
		"goroutine 3 [select (no cases)]:\npanic({0x4a5b20?, 0xc000012345?})\n\t/home/a b/panic.go:770 +0x132\n" +
		"main.main()\n\t/home/a b/m.go:9\n\n" +
		"exit status 2\n"
	want := []Goroutine{
		{ID: 1, Count: 1, State: "chan send", Minutes: 7, Frames: []Frame{{Func: "gopkg.in/yaml.v2.(*T).M", Pkg: "gopkg.in/yaml.v2", File: "/x/y.go", Line: 3}}},
		{ID: 2, Count: 1, State: "running"},
		{ID: 3, Count: 1, State: "select (no cases)", Frames: []Frame{
			{Func: "panic", File: "/home/a b/panic.go", Line: 770},
			{Func: "main.main", Pkg: "main", File: "/home/a b/m.go", Line: 9},
		}},
	}
	for _, data := range []string{dump, strings.ReplaceAll(dump, "\n", "\r\n")} {
		d, err := Parse("crash.txt", []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		if d.Format != FormatTraceback || !reflect.DeepEqual(d.Goroutines, want) {
			t.Errorf("Parse = %s %+v\nwant %s %+v", d.Format, d.Goroutines, FormatTraceback, want)
		}
	}
	if _, err := Parse("cut.txt", []byte("goroutine 1 [running]:\nmain.main()\nnot a location\n")); err == nil {
		t.Error("a function without its location parsed")
	}
}
