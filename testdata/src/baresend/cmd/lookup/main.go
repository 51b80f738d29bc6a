// Command lookup resolves each name on its command line against the
// search roots, trying one root at a time and stopping at the first that
// has the name. A generator goroutine lists the roots per name; once the
// name is found nobody reads the rest and the generator stays blocked.
// That is one blocked goroutine per argument in a command that exits right
// after: the findings are audited, not reported by default.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	flag.Parse()
	for _, name := range flag.Args() {
		roots := make(chan string)
		go listRoots(roots)
		path, ok := firstMatch(roots, name)
		if !ok {
			fmt.Fprintf(os.Stderr, "lookup: %s not found\n", name)
			continue
		}
		fmt.Println(path)
	}
}

func listRoots(out chan string) {
	out <- "." // want `send on out \(chan string, unbuffered\) can block forever: its receiver firstMatch can return before draining it \[audit: made in main, at most once per element of a collection`
	for _, root := range strings.Split(os.Getenv("LOOKUPPATH"), ":") {
		out <- root // want `send on out .*\[audit: made in main`
	}
	close(out)
}

func firstMatch(roots chan string, name string) (string, bool) {
	for root := range roots {
		p := filepath.Join(root, name)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return "", false
}
