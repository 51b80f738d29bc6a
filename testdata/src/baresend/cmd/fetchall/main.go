// Command fetchall checks every URL on its command line and waits for its
// checkers before it exits. A checker whose result nobody reads any more
// keeps main waiting on the WaitGroup: a hang, not a leak, so it is
// reported.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"sync"
)

func main() {
	flag.Parse()
	var wg sync.WaitGroup
	for _, url := range flag.Args() {
		status := make(chan int)
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Head(url)
			if err != nil {
				return
			}
			resp.Body.Close()
			status <- resp.StatusCode // want `send on status \(chan int, unbuffered\) can block forever: its receiver firstStatus can return before draining it$`
		}()
		if code := firstStatus(status); code != 0 {
			fmt.Println(url, code)
		}
	}
	wg.Wait()
}

// firstStatus gives up at once when no status is ready.
func firstStatus(status chan int) int {
	select {
	case code := <-status:
		return code
	default:
		return 0
	}
}
