package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A target is one module whose own packages are analysed. Module is ""
// for the standard library.
type target struct {
	Name   string
	Module string
}

// targets are the speed benchmark's (bench/targets.go, less its smoke
// test's tiny module), five more servers built on channels and gRPC
// streams, nine clients, brokers and transports whose goroutines talk over
// channels (messaging clients, pub/sub, task queues, WebRTC), and fifteen
// more: database and queue clients, a workflow SDK, an embedded store,
// QUIC, websockets, a worker pool; and eight more, read blind once at
// 2026-12-01's build before any rule was tuned on them: two worker pools,
// a server-sent events server, nomad's API client, a ZooKeeper client, an
// MQTT broker, a Discord client and an event bus; and twenty more read
// the same way: database, DNS, netlink, D-Bus and Vault clients,
// schedulers, pools and concurrency kits, multiplexed and event-loop
// transports, websocket and gRPC middleware, then six more (event
// broadcasting, tracing's batch processor, stream, RocketMQ and MQTT v5
// clients), and five built on gRPC streams (gNMI, the gateway's runtime,
// a stream proxy, ttrpc, a Kubernetes resolver), and six channel kits
// and supervisors (file watchers, data structures, channel utilities, a
// service supervisor, an unbounded channel); and four read blind at
// 2026-12-03 (an AMQP 1.0 client, SSH, a TCP fault-injection proxy,
// libp2p), each at the version bench/mod already held, or new to it.
// bench/mod/go.mod pins every version.
var targets = []target{
	{"std", ""},
	{"x/tools", "golang.org/x/tools"},
	{"grpc", "google.golang.org/grpc"},
	{"connect", "connectrpc.com/connect"},
	{"etcd", "go.etcd.io/etcd/server/v3"},
	{"nats", "github.com/nats-io/nats-server/v2"},
	{"raft", "github.com/hashicorp/raft"},
	{"xds", "github.com/envoyproxy/go-control-plane"},
	{"memberlist", "github.com/hashicorp/memberlist"},
	{"serf", "github.com/hashicorp/serf"},
	{"yamux", "github.com/hashicorp/yamux"},
	{"amqp", "github.com/rabbitmq/amqp091-go"},
	{"nats.go", "github.com/nats-io/nats.go"},
	{"go-redis", "github.com/redis/go-redis/v9"},
	{"pubsub", "github.com/libp2p/go-libp2p-pubsub"},
	{"kafka-go", "github.com/segmentio/kafka-go"},
	{"asynq", "github.com/hibiken/asynq"},
	{"mqtt", "github.com/eclipse/paho.mqtt.golang"},
	{"watermill", "github.com/ThreeDotsLabs/watermill"},
	{"ice", "github.com/pion/ice/v4"},
	{"webrtc", "github.com/pion/webrtc/v4"},
	{"pulsar", "github.com/apache/pulsar-client-go"},
	{"franz-go", "github.com/twmb/franz-go"},
	{"badger", "github.com/dgraph-io/badger/v4"},
	{"minio", "github.com/minio/minio-go/v7"},
	{"gocql", "github.com/gocql/gocql"},
	{"pgx", "github.com/jackc/pgx/v5"},
	{"temporal", "go.temporal.io/sdk"},
	{"consul-api", "github.com/hashicorp/consul/api"},
	{"go-plugin", "github.com/hashicorp/go-plugin"},
	{"go-memdb", "github.com/hashicorp/go-memdb"},
	{"quic-go", "github.com/quic-go/quic-go"},
	{"melody", "github.com/olahol/melody"},
	{"gorilla-ws", "github.com/gorilla/websocket"},
	{"coder-ws", "github.com/coder/websocket"},
	{"ants", "github.com/panjf2000/ants/v2"},
	{"workerpool", "github.com/gammazero/workerpool"},
	{"sse", "github.com/r3labs/sse/v2"},
	{"nomad-api", "github.com/hashicorp/nomad/api"},
	{"zk", "github.com/go-zookeeper/zk"},
	{"mochi-mqtt", "github.com/mochi-mqtt/server/v2"},
	{"discordgo", "github.com/bwmarrin/discordgo"},
	{"pond", "github.com/alitto/pond/v2"},
	{"eventbus", "github.com/asaskevich/EventBus"},
	{"pq", "github.com/lib/pq"},
	{"netlink", "github.com/vishvananda/netlink"},
	{"dns", "github.com/miekg/dns"},
	{"fsnotify", "github.com/fsnotify/fsnotify"},
	{"cron", "github.com/robfig/cron/v3"},
	{"gocron", "github.com/go-co-op/gocron/v2"},
	{"conc", "github.com/sourcegraph/conc"},
	{"puddle", "github.com/jackc/puddle/v2"},
	{"resiliency", "github.com/eapache/go-resiliency"},
	{"redigo", "github.com/gomodule/redigo"},
	{"dbus", "github.com/godbus/dbus/v5"},
	{"vault-api", "github.com/hashicorp/vault/api"},
	{"elastic", "github.com/olivere/elastic/v7"},
	{"grpchan", "github.com/fullstorydev/grpchan"},
	{"smux", "github.com/xtaci/smux"},
	{"redcon", "github.com/tidwall/redcon"},
	{"gws", "github.com/lxzan/gws"},
	{"gnet", "github.com/panjf2000/gnet/v2"},
	{"grpc-middleware", "github.com/grpc-ecosystem/go-grpc-middleware/v2"},
	{"grpc-web", "github.com/improbable-eng/grpc-web"},
	{"otel-sdk", "go.opentelemetry.io/otel/sdk"},
	{"go-events", "github.com/docker/go-events"},
	{"moby-pubsub", "github.com/moby/pubsub"},
	{"rabbitmq-stream", "github.com/rabbitmq/rabbitmq-stream-go-client"},
	{"rocketmq", "github.com/apache/rocketmq-client-go/v2"},
	{"paho.golang", "github.com/eclipse/paho.golang"},
	{"gnmi", "github.com/openconfig/gnmi"},
	{"grpc-gateway", "github.com/grpc-ecosystem/grpc-gateway/v2"},
	{"grpc-proxy", "github.com/mwitkow/grpc-proxy"},
	{"ttrpc", "github.com/containerd/ttrpc"},
	{"kuberesolver", "github.com/sercand/kuberesolver/v5"},
	{"notify", "github.com/rjeczalik/notify"},
	{"tail", "github.com/nxadm/tail"},
	{"go-datastructures", "github.com/Workiva/go-datastructures"},
	{"eapache-channels", "github.com/eapache/channels"},
	{"suture", "github.com/thejerf/suture/v4"},
	{"chanx", "github.com/smallnest/chanx"},
	{"go-amqp", "github.com/Azure/go-amqp"},
	{"x/crypto", "golang.org/x/crypto"},
	{"toxiproxy", "github.com/Shopify/toxiproxy/v2"},
	{"libp2p", "github.com/libp2p/go-libp2p"},
}

func targetNames() []string {
	var names []string
	for _, t := range targets {
		names = append(names, t.Name)
	}
	return names
}

func findTarget(name string) (target, error) {
	for _, t := range targets {
		if t.Name == name {
			return t, nil
		}
	}
	return target{}, fmt.Errorf("unknown target %q (want some of %s)", name, strings.Join(targetNames(), ","))
}

// modulePath is how findings name the target's module: its path, or "std".
func (t target) modulePath() string {
	if t.Module == "" {
		return "std"
	}
	return t.Module
}

func (t target) pattern() string {
	if t.Module == "" {
		return "std"
	}
	return t.Module + "/..."
}

// A runner resolves targets inside bench/mod and runs sendlint on them.
type runner struct {
	modDir   string // bench/mod
	sendlint string
	scratch  string // holds the sendlint it built; "" when given one
	env      []string
	goroot   string // GOROOT/src: the standard library's root
	modcache string
	version  string // GOVERSION: the standard library's version
}

func newRunner(root, sendlint string) (*runner, error) {
	r := &runner{
		modDir: filepath.Join(root, "bench", "mod"),
		// The pinned go.mod is the point: nothing may move a version.
		env: append(os.Environ(), "GOFLAGS=-buildvcs=false -mod=readonly", "GOWORK=off", "GOTOOLCHAIN=local"),
	}
	out, err := r.goOutput(r.modDir, "env", "GOROOT", "GOMODCACHE", "GOVERSION")
	if err != nil {
		return nil, err
	}
	vars := strings.Split(strings.TrimSpace(out), "\n")
	if len(vars) != 3 {
		return nil, fmt.Errorf("go env: unexpected output %q", out)
	}
	r.goroot, r.modcache, r.version = filepath.Join(vars[0], "src"), vars[1], vars[2]
	if sendlint != "" {
		r.sendlint, err = filepath.Abs(sendlint)
		return r, err
	}
	if r.scratch, err = os.MkdirTemp("", "sendlint-precision-"); err != nil {
		return nil, err
	}
	r.sendlint = filepath.Join(r.scratch, "sendlint")
	logf("building sendlint")
	if _, err := r.goOutput(root, "build", "-o", r.sendlint, "./cmd/sendlint"); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// close removes the sendlint the runner built.
func (r *runner) close() {
	if r.scratch != "" {
		os.RemoveAll(r.scratch)
	}
}

// A targetRun is what sendlint found in one target.
type targetRun struct {
	Name     string
	Module   string // as findings name it: the module path, or "std"
	Version  string
	Packages int
	Excluded []string // packages that do not load, with the first error
	Errors   []string // packages sendlint reported an error for
	Findings []finding
}

func (r *runner) analyse(t target) (targetRun, error) {
	tr := targetRun{Name: t.Name, Module: t.modulePath()}
	start := time.Now()
	pkgs, dir, err := r.resolve(t, &tr)
	if err != nil {
		return tr, err
	}
	tr.Packages = len(pkgs)
	if len(pkgs) == 0 {
		return tr, fmt.Errorf("no package of %s loads", t.pattern())
	}
	logf("%s: sendlint on %d packages", t.Name, len(pkgs))
	out, errs, err := r.runSendlint(pkgs)
	if err != nil {
		return tr, err
	}
	// Related positions may lie in another module or in the standard
	// library: name those relative to the module cache or GOROOT/src.
	var parseErrs []string
	tr.Findings, parseErrs, err = parseFindings(bytes.NewReader(out), tr.Module, []string{dir, r.modcache, r.goroot})
	tr.Errors = slices.Concat(errs, parseErrs)
	logf("%s: %d findings in %.0fs", t.Name, len(tr.Findings), time.Since(start).Seconds())
	return tr, err
}

// listEntry is the part of go list -json this file reads.
type listEntry struct {
	ImportPath string
	Module     *struct{ Path, Version, Dir string }
	Error      *struct{ Err string }
	DepsErrors []struct{ Err string }
}

// resolve lists the target's packages, keeps those of its own module that
// load without errors (recording the others in tr.Excluded), and returns
// them with the module's root directory. It sets tr.Version.
func (r *runner) resolve(t target, tr *targetRun) (pkgs []string, dir string, err error) {
	out, err := r.goOutput(r.modDir, "list", "-e", "-json=ImportPath,Module,Error,DepsErrors", t.pattern())
	if err != nil {
		return nil, "", err
	}
	dir, tr.Version = r.goroot, r.version
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var e listEntry
		if err := dec.Decode(&e); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, "", fmt.Errorf("go list: %v", err)
		}
		if e.Module != nil && e.Module.Path != t.Module || e.Module == nil && t.Module != "" {
			continue // another module matched by the pattern (grpc/examples, say)
		}
		if e.Module != nil {
			dir, tr.Version = e.Module.Dir, e.Module.Version
		}
		if msg := firstError(e); msg != "" {
			tr.Excluded = append(tr.Excluded, e.ImportPath+": "+msg)
			continue
		}
		pkgs = append(pkgs, e.ImportPath)
	}
	return pkgs, dir, nil
}

func firstError(e listEntry) string {
	msg := ""
	if e.Error != nil {
		msg = e.Error.Err
	} else if len(e.DepsErrors) > 0 {
		msg = e.DepsErrors[0].Err
	}
	first, _, _ := strings.Cut(msg, "\n")
	return first
}

// runSendlint runs sendlint -audit -format=json in bench/mod and returns
// its JSON and the package errors it printed. It exits 3 with findings and
// 1 when some package failed, printing the JSON of the others all the same.
func (r *runner) runSendlint(pkgs []string) (out []byte, errs []string, err error) {
	cmd := exec.Command(r.sendlint, append([]string{"-audit", "-format=json"}, pkgs...)...)
	cmd.Dir, cmd.Env = r.modDir, r.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 1 && exit.ExitCode() != 3) {
		return nil, nil, fmt.Errorf("sendlint: %v\n%s", err, tail(stderr.String(), 10))
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if msg, ok := strings.CutPrefix(line, "sendlint: "); ok {
			errs = append(errs, msg)
		}
	}
	return stdout.Bytes(), errs, nil
}

// goOutput runs the go command in dir and returns its standard output.
func (r *runner) goOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, r.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, tail(stderr.String(), 10))
	}
	return string(out), nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// saveRuns and loadRuns keep the findings of a run, so that the ledger can
// be checked again without running sendlint.
func saveRuns(path string, runs []targetRun) error {
	data, err := json.MarshalIndent(runs, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func loadRuns(path string) ([]targetRun, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var runs []targetRun
	if err := json.Unmarshal(data, &runs); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no targets", path)
	}
	return runs, nil
}
