// Command dumpgen wedges a hub and prints a goroutine dump of itself, in
// the format -mode names, for triage's fixtures. gen.sh runs every mode.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"example.com/dumpgen/hub"
)

func main() {
	mode := flag.String("mode", "debug2", "debug2, debug1, leak2, leak1, quit, panic, or interval")
	interval := flag.Duration("interval", 65*time.Second, "time between the two dumps of -mode=interval")
	second := flag.String("second", "", "with -mode=interval, the file the second dump goes to")
	flag.Parse()
	// The dump is of wedged goroutines: the program must not wait for them.
	time.AfterFunc(*interval+time.Minute, func() { os.Exit(4) })

	var slow *hub.Slow
	if *mode == "interval" {
		slow = hub.NewSlow()
		for i := range 4 {
			go slow.Produce(i)
		}
	}
	ln := wedge()
	defer ln.Close()

	switch *mode {
	case "debug2":
		check(pprof.Lookup("goroutine").WriteTo(os.Stdout, 2))
	case "debug1":
		check(pprof.Lookup("goroutine").WriteTo(os.Stdout, 1))
	case "leak2", "leak1":
		p := pprof.Lookup("goroutineleak")
		if p == nil {
			fmt.Fprintln(os.Stderr, "dumpgen: no goroutineleak profile: build with GOEXPERIMENT=goroutineleakprofile")
			os.Exit(1)
		}
		check(p.WriteTo(os.Stdout, int(map[string]int{"leak2": 2, "leak1": 1}[*mode])))
	case "quit":
		check(syscall.Kill(os.Getpid(), syscall.SIGQUIT))
		select {}
	case "panic":
		panic("wedged")
	case "interval":
		check(pprof.Lookup("goroutine").WriteTo(os.Stdout, 2))
		deadline := time.Now().Add(*interval)
		for time.Now().Before(deadline) {
			slow.Consume()
			time.Sleep(10 * time.Millisecond)
		}
		f, err := os.Create(*second)
		check(err)
		check(pprof.Lookup("goroutine").WriteTo(f, 2))
		check(f.Close())
	}
}

// wedge starts the hub's goroutines and returns once they are all parked.
// It keeps no reference to the hub, so that the goroutine leak profile sees
// them as leaked.
func wedge() net.Listener {
	h := hub.New()
	h.Subscribe() // a client that never reads
	go h.Run()
	for i := range 12 {
		go h.Publish(fmt.Sprint(i))
	}
	waitFor("[chan send", 9)
	stop := make(chan struct{})
	for range 2 {
		go h.Offer("offer", stop)
	}
	for range 3 {
		go h.Count()
	}
	release := make(chan struct{})
	go h.Reset(release)
	waitFor("[chan receive", 1)
	for range 2 {
		go h.Report()
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go wg.Wait()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	go func() {
		if _, err := ln.Accept(); err == nil {
			fmt.Fprintln(os.Stderr, "dumpgen: unexpected connection")
		}
	}()
	waitFor("[sync.Mutex.Lock", 3)
	waitFor("[sync.RWMutex.RLock", 2)
	waitFor("[sync.WaitGroup.Wait", 1)
	waitFor("[IO wait", 1)
	waitFor("[select", 2)
	return ln
}

// waitFor polls the goroutine stacks until n goroutines are in state.
func waitFor(state string, n int) {
	buf := make([]byte, 1<<20)
	for range 5000 {
		k := runtime.Stack(buf, true)
		if bytes.Count(buf[:k], []byte(state)) >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	fmt.Fprintf(os.Stderr, "dumpgen: fewer than %d goroutines in %s\n", n, strings.TrimPrefix(state, "["))
	os.Exit(1)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "dumpgen:", err)
		os.Exit(1)
	}
}
