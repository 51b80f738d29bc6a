package main

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestTreeRSS checks that the sampler sees grandchildren, which is the
// point of summing over the tree: sh starts two sleeps under itself.
func TestTreeRSS(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 5 & sleep 5 & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var kids []int
	for deadline := time.Now().Add(3 * time.Second); len(kids) < 2 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		kids = children(cmd.Process.Pid)
	}
	sum := treeRSS(cmd.Process.Pid)
	for _, pid := range kids {
		_ = syscall.Kill(pid, syscall.SIGKILL) // it may have exited already
	}
	_ = cmd.Wait() // killed: the error says so
	if len(kids) != 2 {
		t.Fatalf("children of sh = %v, want two sleeps", kids)
	}
	if sum <= 0 {
		t.Errorf("treeRSS = %d KiB, want above zero", sum)
	}
}
