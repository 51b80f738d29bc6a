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

// treeRSS returns the summed VmRSS, in KiB, of root's descendants. root
// itself is /usr/bin/time, whose 2 MB would only add noise, so it is left out.
func treeRSS(root int) int64 {
	parents := processParents()
	var sum int64
	for pid := range parents {
		if pid != root && descends(pid, root, parents) {
			sum += rssKB(pid)
		}
	}
	return sum
}

func descends(pid, root int, parents map[int]int) bool {
	for depth := 0; pid > 1 && depth < 64; depth++ {
		pid = parents[pid]
		if pid == root {
			return true
		}
	}
	return false
}

// processParents maps every live pid to its parent pid.
func processParents() map[int]int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	m := make(map[int]int, len(dirs))
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(d); ok {
			m[pid] = ppid
		}
	}
	return m
}

// parentOf reads field 4 of /proc/<pid>/stat. The command name (field 2)
// is in parentheses and may hold spaces, so fields are counted after the
// last ')'.
func parentOf(dir string) (int, bool) {
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	return ppid, err == nil
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
