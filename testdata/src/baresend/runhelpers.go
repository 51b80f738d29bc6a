package baresend

import "errors"

// A sender that reports through a helper sends as many values as the
// helper runs. A scanner that checks each shard on one goroutine, with a
// helper that reports one result per call, sends one value per shard,
// however few the helper makes in one call: a buffer of two is too small
// for three shards once the caller stops after the first result.

var errShard = errors.New("shard unreachable")

func reportShard(results chan<- error, shard int) {
	if shard < 0 {
		results <- errShard // want `send on results \(chan<- error, cap 2\) can block forever: scanShards can return before receiving every value`
		return
	}
	results <- nil // want `send on results \(chan<- error, cap 2\) can block forever: scanShards can return before receiving every value`
}

func scanShards(shards []int) error {
	results := make(chan error, 2)
	go func() {
		for _, s := range shards {
			reportShard(results, s)
		}
	}()
	return <-results
}

// checkFirst calls its helper once, outside any loop: one value, and the
// buffer has room for it.
func checkFirst(shards []int) error {
	results := make(chan error, 1)
	go func() {
		if len(shards) > 0 {
			reportFirst(results, shards[0])
		}
	}()
	return <-results
}

func reportFirst(results chan<- error, shard int) {
	if shard < 0 {
		results <- errShard
		return
	}
	results <- nil
}
