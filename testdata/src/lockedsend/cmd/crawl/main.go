// Command crawl checks the links of each page on its command line, a few
// workers at a time. A worker sends its first broken link while it holds
// the report's lock, and main stops reading after the first one: the
// worker then holds the lock for good and every other worker waits on it.
// A command's bounded leak is audited by baresend, but a sender left
// blocked holding a lock stalls everyone who wants it, so lockedsend
// reports it by default.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"sync"
)

type report struct {
	mu      sync.Mutex
	checked int
}

func main() {
	flag.Parse()
	for _, page := range flag.Args() {
		broken := make(chan string)
		r := new(report)
		for _, link := range links(page) {
			go r.check(link, broken)
		}
		fmt.Println("first broken link:", <-broken)
	}
}

func (r *report) check(link string, broken chan string) {
	resp, err := http.Head(link)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.checked++
	if err != nil {
		broken <- link // want `send on broken can block forever while r\.mu is held: main can return before receiving every value; every goroutine that needs r\.mu waits with it$`
		return
	}
	resp.Body.Close()
}

func links(page string) []string { return []string{page + "/a", page + "/b"} }
