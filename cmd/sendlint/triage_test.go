package main_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sendlint/sendlint/internal/triage"
)

// TestTriageWedgedServer wedges a real server and triages its own
// goroutine dump: testdata/src/wedgeserver replies to every subscriber
// from one broadcaster goroutine, through a bare send made while the hub's
// lock is held. A subscriber whose connection stops reading stops the
// broadcaster; the publishers queue behind it, and /stats waits for the
// lock.
func TestTriageWedgedServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	module, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "wedgeserver"))
	if err != nil {
		t.Fatal(err)
	}
	addr := startWedgeServer(t, module)
	base := "http://" + addr

	// A subscriber that reads nothing, with a small receive window.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if err := conn.(*net.TCPConn).SetReadBuffer(4096); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(conn, "GET /subscribe HTTP/1.1\r\nHost: %s\r\n\r\n", addr); err != nil {
		t.Fatal(err)
	}
	waitDump(t, base, "the subscriber to register", func(d *triage.Dump) bool {
		return parked(d, "chan receive", "main.(*hub).subscribe") == 1
	})

	ctx, cancel := context.WithCancel(context.Background())
	var requests sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		requests.Wait()
	})
	get := func(path string, done *atomic.Int32) {
		defer requests.Done()
		req, err := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		if err != nil {
			return
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return // the test is over and cancelled the request
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if done != nil {
			done.Add(1)
		}
	}

	// Publishers: each queues a 1 MiB message; once the subscriber's
	// connection is full, the broadcaster stops and they stop with it.
	const publishers = 40
	var published atomic.Int32
	for range publishers {
		requests.Add(1)
		go get("/publish?m=x", &published)
	}
	var blocked int
	waitDump(t, base, "every publisher to be answered or parked", func(d *triage.Dump) bool {
		blocked = parked(d, "chan send", "main.(*hub).publish")
		return parked(d, "chan send", "main.(*hub).broadcast") == 1 && blocked+int(published.Load()) == publishers
	})
	if blocked == 0 {
		t.Fatalf("no publisher blocked: the subscriber's connection took all %d messages", publishers)
	}

	// Stats requests wait for the lock the broadcaster holds. The
	// subscriber's socket can still take a little now and then, which lets
	// the broadcaster, and one publisher, move on: a request that comes
	// then is answered, so ask again until some wait, and hand triage the
	// dump that shows them.
	const stats = 5
	var answered atomic.Int32
	sent := 0
	ask := func() {
		for range stats {
			requests.Add(1)
			sent++
			go get("/stats", &answered)
		}
	}
	ask()
	data := waitDump(t, base, "/stats to wait for the lock", func(d *triage.Dump) bool {
		waiting := parked(d, "sync.Mutex.Lock", "main.(*hub).stats")
		settled := waiting+int(answered.Load()) == sent
		if settled && waiting == 0 && sent < 20*stats {
			ask()
		}
		return settled && waiting > 0 && parked(d, "chan send", "main.(*hub).publish") > 0
	})
	final, err := triage.Parse("dump", data)
	if err != nil {
		t.Fatal(err)
	}
	blocked = parked(final, "chan send", "main.(*hub).publish")
	waiting := parked(final, "sync.Mutex.Lock", "main.(*hub).stats")
	if blocked == 0 || waiting == 0 {
		t.Fatalf("the final dump shows %d publishers and %d stats requests parked, want some of each", blocked, waiting)
	}
	dumpFile := filepath.Join(t.TempDir(), "dump.txt")
	if err := os.WriteFile(dumpFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sendlint, "triage", "-C", module, dumpFile)
	out, err := cmd.Output()
	code := cmd.ProcessState.ExitCode()
	t.Logf("sendlint triage (exit %d):\n%s", code, out)
	if code != 3 {
		t.Fatalf("exit %d, want 3: %v", code, err)
	}
	for _, want := range []string{
		// The bare send is a proven finding: the subscriber returns from
		// its receive loop when a write fails, and nothing reads after it.
		"confirmed: 1 goroutine [chan send] at main.go:35 in main.(*hub).broadcast\n" +
			"\tmain.go:35:6: send on c (chan string, cap 2) can block forever: its receiver (*hub).subscribe can stop receiving",
		"(baresend)\n\t\tmain.go:47:11: channel made here (cap 2)\n\t\tmain.go:55:2: its receiver (*hub).subscribe can stop waiting here\n" +
			"\t\tmain.go:57:4: it returns here, before the channel is closed\n" +
			"\tmain.go:35:6: send on c can block forever while h.mu is held",
		fmt.Sprintf("unexplained: %d goroutines [chan send] at main.go:42 in main.(*hub).publish: parked on a send, and no finding is here\n", blocked),
		fmt.Sprintf("lock: %d goroutines [sync.Mutex.Lock] at main.go:64 in main.(*hub).stats want the lock this finding holds across a send (same lock name):\n", waiting) +
			"\tmain.go:35:6: send on c can block forever while h.mu is held",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks\n%s", want)
		}
	}
}

// startWedgeServer builds and starts the server, and returns the loopback
// address it listens on. The server exits by itself after its lifetime;
// the test kills it sooner.
func startWedgeServer(t *testing.T, module string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "wedgeserver")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = module
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the server: %v\n%s", err, out)
	}
	srv := exec.Command(bin, "-lifetime=5m")
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Process.Kill()
		_ = srv.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's address: %v", err)
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok || !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("server says %q, want listening on 127.0.0.1:port", line)
	}
	return addr
}

func fetchDump(t *testing.T, base string) []byte {
	t.Helper()
	resp, err := http.Get(base + "/debug/pprof/goroutine?debug=2")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("fetching the dump: %v, status %s", err, resp.Status)
	}
	return data
}

// waitDump polls the server's goroutine dump until ready holds, for at
// most two minutes, and returns the dump that satisfied it: under a
// loaded machine the server and the triage that builds SSA take their
// time, and nothing here measures speed.
func waitDump(t *testing.T, base, what string, ready func(*triage.Dump) bool) []byte {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		data := fetchDump(t, base)
		d, err := triage.Parse("dump", data)
		if err != nil {
			t.Fatal(err)
		}
		if ready(d) {
			return data
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// parked counts the goroutines in state whose stack holds fn.
func parked(d *triage.Dump, state, fn string) int {
	n := 0
	for _, g := range d.Goroutines {
		if g.State != state {
			continue
		}
		for _, f := range g.Frames {
			if f.Func == fn {
				n += g.Count
				break
			}
		}
	}
	return n
}
