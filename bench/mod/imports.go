// Package mod exists only to put the benchmark targets in this module's
// graph; the benchmark runs the tools on the targets' packages, never on
// this one.
package mod

import (
	_ "connectrpc.com/connect"
	_ "github.com/hashicorp/raft"
	_ "github.com/nats-io/nats-server/v2/server"
	_ "go.etcd.io/etcd/server/v3/embed"
	_ "golang.org/x/tools/go/analysis"
	_ "google.golang.org/grpc"
)
