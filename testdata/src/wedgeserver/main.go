// Command wedgeserver is a small fan-out server that wedges the way the
// router does (testdata/src/router): one broadcaster goroutine replies to
// every subscriber through a bare send on its bounded channel, holding the
// hub's lock. One subscriber whose connection stops reading stops the
// broadcaster, every publisher queued behind it, and every request that
// wants the lock. It serves net/http/pprof, on 127.0.0.1 only, so that the
// wedge can be seen in its goroutine dump, and exits by itself after
// -lifetime.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"strings"
	"sync"
	"time"
)

type hub struct {
	mu      sync.Mutex
	clients map[int]chan string
	next    int
	queue   chan string
}

// broadcast is the hub's one sender.
func (h *hub) broadcast() {
	for m := range h.queue {
		h.mu.Lock()
		for _, c := range h.clients {
			c <- m
		}
		h.mu.Unlock()
	}
}

func (h *hub) publish(w http.ResponseWriter, r *http.Request) {
	h.queue <- strings.Repeat(r.URL.Query().Get("m"), 1<<20)
	fmt.Fprintln(w, "queued")
}

func (h *hub) subscribe(w http.ResponseWriter, r *http.Request) {
	c := make(chan string, 2)
	h.mu.Lock()
	id := h.next
	h.next++
	h.clients[id] = c
	h.mu.Unlock()
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	for m := range c {
		if _, err := fmt.Fprintln(w, m); err != nil {
			return
		}
		w.(http.Flusher).Flush()
	}
}

func (h *hub) stats(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	n := len(h.clients)
	h.mu.Unlock()
	fmt.Fprintf(w, "%d clients\n", n)
}

func main() {
	lifetime := flag.Duration("lifetime", 2*time.Minute, "exit after this long")
	flag.Parse()
	time.AfterFunc(*lifetime, func() {
		fmt.Fprintln(os.Stderr, "wedgeserver: lifetime over")
		os.Exit(0)
	})
	h := &hub{clients: make(map[int]chan string), queue: make(chan string, 4)}
	go h.broadcast()
	http.HandleFunc("/publish", h.publish)
	http.HandleFunc("/subscribe", h.subscribe)
	http.HandleFunc("/stats", h.stats)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "wedgeserver:", err)
		os.Exit(1)
	}
	fmt.Printf("listening on %s\n", ln.Addr())
	if err := http.Serve(ln, nil); err != nil {
		fmt.Fprintln(os.Stderr, "wedgeserver:", err)
		os.Exit(1)
	}
}
