package main_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoCgo keeps the C runtime out of the binary. go vet -vettool starts
// one process per package, dependencies included, and a binary that links
// runtime/cgo (os/user and net do, unless told otherwise) pays for the
// dynamic loader in every one: about 2 ms, 5% of go vet's CPU time on a
// module like etcd's server.
func TestNoCgo(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "runtime/cgo" {
			t.Fatal("sendlint links runtime/cgo: some dependency imports os/user, net or a cgo package")
		}
	}
}
