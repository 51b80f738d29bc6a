// Package mod exists only to put the benchmark targets in this module's
// graph; the benchmark runs the tools on the targets' packages, never on
// this one.
//
// go.sum also holds the sums of the modules the targets' tests import,
// which go mod tidy would drop (tidy keeps only what this module's own
// packages and tests need). After changing a version, run go mod tidy,
// then go get -t on each target's packages, for example
// go get -t $(go list golang.org/x/tools/...).
package mod

import (
	_ "connectrpc.com/connect"
	_ "github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
	_ "github.com/alitto/pond/v2"
	_ "github.com/apache/pulsar-client-go/pulsar"
	_ "github.com/asaskevich/EventBus"
	_ "github.com/bwmarrin/discordgo"
	_ "github.com/coder/websocket"
	_ "github.com/dgraph-io/badger/v4"
	_ "github.com/eclipse/paho.mqtt.golang"
	_ "github.com/envoyproxy/go-control-plane/pkg/server/v3"
	_ "github.com/gammazero/workerpool"
	_ "github.com/go-zookeeper/zk"
	_ "github.com/gocql/gocql"
	_ "github.com/gorilla/websocket"
	_ "github.com/hashicorp/consul/api"
	_ "github.com/hashicorp/go-memdb"
	_ "github.com/hashicorp/go-plugin"
	_ "github.com/hashicorp/memberlist"
	_ "github.com/hashicorp/nomad/api"
	_ "github.com/hashicorp/raft"
	_ "github.com/hashicorp/serf/serf"
	_ "github.com/hashicorp/yamux"
	_ "github.com/hibiken/asynq"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/libp2p/go-libp2p-pubsub"
	_ "github.com/minio/minio-go/v7"
	_ "github.com/mochi-mqtt/server/v2"
	_ "github.com/nats-io/nats-server/v2/server"
	_ "github.com/nats-io/nats.go"
	_ "github.com/olahol/melody"
	_ "github.com/panjf2000/ants/v2"
	_ "github.com/pion/ice/v4"
	_ "github.com/pion/webrtc/v4"
	_ "github.com/quic-go/quic-go"
	_ "github.com/r3labs/sse/v2"
	_ "github.com/rabbitmq/amqp091-go"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/segmentio/kafka-go"
	_ "github.com/twmb/franz-go/pkg/kgo"
	_ "go.etcd.io/etcd/server/v3/embed"
	_ "go.temporal.io/sdk/client"
	_ "golang.org/x/tools/go/analysis"
	_ "google.golang.org/grpc"
)
