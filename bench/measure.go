package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// A sample is one timed run of one command.
type sample struct {
	Wall     float64 // seconds, GNU time %e
	CPU      float64 // user+sys seconds of the process and the children it waited for (%U+%S)
	MaxRSS   int64   // KiB, GNU time %M: the largest single process of the tree
	TreeRSS  int64   // KiB, the largest sum over the live tree (see treeSampler)
	Exit     int
	Findings int // diagnostic lines in stdout+stderr (see countText)
	Other    int // lines that are neither diagnostics nor "# pkg" headers: errors, mostly
	// Background is CPU seconds the rest of the machine used during the run:
	// all busy time less the run's own. Other work inflates wall time.
	Background float64
}

// A run describes a command to time and where its output goes.
type run struct {
	dir    string   // working directory
	env    []string // full environment
	args   []string
	prefix string // log files are prefix.{stdout,stderr,time}
}

// sampleInterval trades missed short-lived processes against the CPU the
// sampler takes from the tools it measures (a /proc walk costs about 1 ms).
const sampleInterval = 50 * time.Millisecond

// measure runs r under GNU time while sampling its process tree.
func measure(r run) (sample, error) {
	stdout, err := os.Create(r.prefix + ".stdout")
	if err != nil {
		return sample{}, err
	}
	defer func() { _ = stdout.Close() }() // the child wrote it; a close error loses nothing read
	stderr, err := os.Create(r.prefix + ".stderr")
	if err != nil {
		return sample{}, err
	}
	defer func() { _ = stderr.Close() }()

	args := append([]string{"-f", "%e %M %U %S", "-o", r.prefix + ".time"}, r.args...)
	cmd := exec.Command("/usr/bin/time", args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = r.dir, r.env, stdout, stderr
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	busy0 := busySeconds()
	sampler := startSampler(cmd.Process.Pid, sampleInterval)
	waitErr := cmd.Wait()
	s := sample{TreeRSS: sampler.stop()}
	busy := busySeconds() - busy0

	// A non-zero exit is normal: linters exit 1 or 3 when they find something.
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		return s, waitErr
	}
	s.Exit = cmd.ProcessState.ExitCode()
	if err := readTime(r.prefix+".time", &s); err != nil {
		return s, err
	}
	s.Background = max(0, busy-s.CPU)
	s.Findings, s.Other, err = countFiles(r.prefix+".stdout", r.prefix+".stderr")
	return s, err
}

// readTime parses the last line of GNU time's -o file; before it, time may
// have written "Command exited with non-zero status N".
func readTime(path string, s *sample) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 4 {
		return fmt.Errorf("%s: unexpected GNU time output %q", path, b)
	}
	var user, sys float64
	var errs [4]error
	s.Wall, errs[0] = strconv.ParseFloat(f[0], 64)
	s.MaxRSS, errs[1] = strconv.ParseInt(f[1], 10, 64)
	user, errs[2] = strconv.ParseFloat(f[2], 64)
	sys, errs[3] = strconv.ParseFloat(f[3], 64)
	s.CPU = user + sys
	return errors.Join(errs[:]...)
}

// busySeconds is the CPU time all processors have spent not idle since
// boot, from the first line of /proc/stat, counted in USER_HZ (100 a second
// on Linux): user, nice, system, irq, softirq and steal.
func busySeconds() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var ticks float64
	for _, i := range []int{1, 2, 3, 6, 7, 8} {
		if i < len(f) {
			v, _ := strconv.ParseFloat(f[i], 64)
			ticks += v
		}
	}
	return ticks / 100
}
