package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// GNU time reports the largest single process of the tree (the kernel's
// ru_maxrss for the child and the descendants it waited for), not the sum.
// go vet runs a compiler or vet tool per package, two at a time here, so
// the memory the machine needs is the sum of the processes alive at once.
// treeSampler measures that by polling /proc: every interval it adds up the
// resident set of every descendant of root and keeps the largest sum.
//
// Imprecision, stated: a process that lives less than one interval can be
// missed, and pages shared between processes (the go binary's text, the
// page cache of mapped files) are counted once per process, so the sum errs
// a little high.
type treeSampler struct {
	root     int
	interval time.Duration
	peakKB   int64
	done     chan struct{}
	stopped  chan struct{}
}

func startSampler(root int, interval time.Duration) *treeSampler {
	s := &treeSampler{root: root, interval: interval, done: make(chan struct{}), stopped: make(chan struct{})}
	go s.loop()
	return s
}

// stop ends sampling and returns the peak sum in KiB.
func (s *treeSampler) stop() int64 {
	close(s.done)
	<-s.stopped
	return s.peakKB
}

func (s *treeSampler) loop() {
	defer close(s.stopped)
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		s.peakKB = max(s.peakKB, treeRSS(s.root))
		select {
		case <-s.done:
			return
		case <-t.C:
		}
	}
}

// treeRSS returns the summed VmRSS, in KiB, of root's descendants, found
// through /proc/<pid>/task/<tid>/children so that a sample reads only the
// tree's own files. root itself is /usr/bin/time, whose 2 MB would only
// add noise, so it is left out.
func treeRSS(root int) int64 {
	var sum int64
	pending := children(root)
	for len(pending) > 0 {
		pid := pending[len(pending)-1]
		pending = append(pending[:len(pending)-1], children(pid)...)
		sum += rssKB(pid)
	}
	return sum
}

// children lists the child processes of every thread of pid: the go
// command starts its children from whichever thread runs the goroutine.
func children(pid int) []int {
	files, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, f := range files {
		b, _ := os.ReadFile(f) // the thread or process may have ended
		for _, field := range bytes.Fields(b) {
			if child, err := strconv.Atoi(string(field)); err == nil {
				out = append(out, child)
			}
		}
	}
	return out
}

// rssKB reads the resident pages from /proc/<pid>/statm (second field).
func rssKB(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0 // the process ended between the listing and this read
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return pages * int64(os.Getpagesize()) / 1024
}
