package baresend

import (
	"context"
	"errors"
	"io"
)

func work() error { return errors.New("failed") }

func oneSendOneSlotOK() error {
	errc := make(chan error, 1)
	go func() {
		errc <- work() // ok: the buffer holds the only value
	}()
	return nil
}

func twoSendsOneSlotOneReceiveOK() error {
	errc := make(chan error, 1)
	go func() { errc <- work() }() // ok: one value is received, the other fits the buffer
	go func() { errc <- work() }() // ok: as above
	return <-errc
}

func threeSendsOneSlotOneReceiveBad() error {
	errc := make(chan error, 1)
	go func() { errc <- work() }() // want `send on errc \(chan error, cap 1\) can block forever: threeSendsOneSlotOneReceiveBad can return before receiving every value`
	go func() { errc <- work() }() // want `send on errc .* can return before receiving every value`
	go func() { errc <- work() }() // want `send on errc .* can return before receiving every value`
	return <-errc
}

func onePerElementOK(xs []int) {
	results := make(chan int, len(xs))
	for _, x := range xs {
		go func() {
			results <- x * x // ok: len(xs) slots for len(xs) sends
		}()
	}
}

func countedLoopOK(n int) {
	done := make(chan bool, n)
	for i := 0; i < n; i++ {
		go func() { done <- true }() // ok: n slots for n sends
	}
}

func sendBeforeEscapeOK() chan int {
	ch := make(chan int, 1)
	ch <- 1 // ok: made here, sent before anyone else can see it
	return ch
}

// sendLoopOverflowsBad fills a one-slot channel with every element before
// it returns it: with two elements, nobody can take the first.
func sendLoopOverflowsBad(xs []int) <-chan int {
	ch := make(chan int, 1)
	for _, x := range xs {
		ch <- x // want `send on ch \(chan int, cap 1\) can block forever: nothing can receive from it before sendLoopOverflowsBad hands it out after this loop, which sends one value per element of xs, more than the buffer holds when it holds more than 1$`
	}
	return ch
}

// A peer cache answers from what it has: it fills a channel with the
// cached peers and hands it over. The buffer is the caller's limit,
// clamped to the cache's size, so a limit below the size leaves the
// loop waiting for a reader who only gets the channel once it ends.
type Options struct{ Limit int }

type peerCache struct{ peers map[string]int }

func (c *peerCache) cachedLimitBad(opts Options) <-chan int {
	n := opts.Limit
	if n == 0 || n > len(c.peers) {
		n = len(c.peers)
	}
	ch := make(chan int, n)
	for _, p := range c.peers {
		ch <- p // want `send on ch .* can block forever: nothing can receive from it before \(\*peerCache\)\.cachedLimitBad hands it out after this loop, which sends one value per element of c\.peers, more than the buffer holds when opts\.Limit is below its length$`
	}
	close(ch)
	return ch
}

// cachedAllOK sizes the buffer to the cache, or more: every peer fits.
func (c *peerCache) cachedAllOK(opts Options) <-chan int {
	n := opts.Limit
	if n < len(c.peers) {
		n = len(c.peers)
	}
	ch := make(chan int, n)
	for _, p := range c.peers {
		ch <- p // ok: the buffer is at least the number of peers
	}
	close(ch)
	return ch
}

// cachedStreamOK hands the channel to its reader before it fills it.
func (c *peerCache) cachedStreamOK(opts Options, deliver func(<-chan int)) {
	ch := make(chan int, opts.Limit)
	deliver(ch)
	for _, p := range c.peers {
		ch <- p // ok for this rule: the reader has the channel while the loop sends
	}
	close(ch)
}

func nobodyReceivesBad() {
	done := make(chan bool)
	done <- true // want `send on done \(chan bool, unbuffered\) can block forever: nothing receives from it`
}

// shardErrors runs one pipeline per shard of a map and collects the first
// error: one goroutine per entry, each sends at most once, into a buffer
// of len(shards). No send can block, though the caller reads one value.
func shardErrorsOK(shards map[string]func() error) error {
	errs := make(chan error, len(shards))
	for _, run := range shards {
		go func() {
			if err := run(); err != nil {
				errs <- err // ok: one value per entry of shards, and room for each
			}
		}()
	}
	return <-errs
}

// validateAll asks every validator once: a throttled one answers at once
// on this goroutine, the others on a goroutine each. One value per
// validator either way, into a buffer of len(validators).
func validateAllOK(validators []func() bool, throttle chan struct{}) bool {
	results := make(chan bool, len(validators))
	for _, v := range validators {
		select {
		case throttle <- struct{}{}:
			go func() {
				results <- v() // ok: one value per validator
				<-throttle
			}()
		default:
			results <- false // ok: the other branch of the same iteration
		}
	}
	return <-results
}

// retryShards retries each shard once on failure: two values per entry
// into a buffer of len(shards), and the caller reads one.
func retryShardsBad(shards map[string]func() error) error {
	errs := make(chan error, len(shards))
	for _, run := range shards {
		go func() {
			if err := run(); err != nil {
				errs <- err   // want `send on errs \(chan error, cap len\(shards\)\) can block forever: retryShardsBad can return before receiving every value`
				errs <- run() // want `send on errs .* can block forever: retryShardsBad can return before receiving every value`
			}
		}()
	}
	return <-errs
}

// messageBatch is what a fetch hands back: up to a batch of messages, the
// channel closed once they are in.
type messageBatch struct {
	msgs chan string
	err  error
}

// fetchBatch fills a new batch while nobody else has it, and tests for
// room before each send: every send finds it.
func fetchBatchOK(next func() (string, bool), batch int) *messageBatch {
	b := &messageBatch{msgs: make(chan string, batch)}
	for more := true; more && len(b.msgs) < batch; {
		var m string
		m, more = next()
		b.msgs <- m // ok: len(b.msgs) < batch, and the batch is not handed out yet
	}
	close(b.msgs)
	return b
}

// fetchPairs tests for room once and sends two values: the second can
// find the buffer full, and the caller that drains it comes only later.
func fetchPairs(next func() (string, bool), batch int) *messageBatch {
	b := &messageBatch{msgs: make(chan string, batch)}
	for more := true; more && len(b.msgs) < batch; {
		var m string
		m, more = next()
		b.msgs <- m             // ok: the test made room for this one
		b.msgs <- m + " (copy)" // want `send on b\.msgs \(chan string, cap batch\) can block forever: .*\[audit: no receiver of it is visible in this package\]`
	}
	close(b.msgs)
	return b
}

// FetchResult is a pull fetch's answer: up to a batch of messages, the
// first taken at once, the rest by a goroutine as they arrive.
type FetchResult struct {
	msgs chan string
}

// Messages lets the caller receive the batch.
func (r *FetchResult) Messages() <-chan string { return r.msgs }

// Fetch takes what is ready, then asks for the room left and lets a
// goroutine send at most that many: the buffer never overflows, whether
// or not the caller reads.
func Fetch(ready func() (string, bool), next func() (string, bool), batch int) *FetchResult {
	r := &FetchResult{msgs: make(chan string, batch)}
	for more := true; more && len(r.msgs) < batch; {
		var m string
		m, more = ready()
		r.msgs <- m // ok: tested for room, before anyone has the result
	}
	room := batch - len(r.msgs)
	go func() {
		defer close(r.msgs)
		for sent := 0; sent < room; {
			m, ok := next()
			if !ok {
				return
			}
			if m == "" {
				continue // a heartbeat
			}
			r.msgs <- m // ok: at most room sends into the room left
			sent++
		}
	}()
	return r
}

// FetchDup sends every message twice per counted one: twice the room.
func FetchDup(next func() (string, bool), batch int) *FetchResult {
	r := &FetchResult{msgs: make(chan string, batch)}
	room := batch - len(r.msgs)
	go func() {
		defer close(r.msgs)
		for sent := 0; sent < room; sent++ {
			m, ok := next()
			if !ok {
				return
			}
			r.msgs <- m      // want `send on r\.msgs .* can block forever`
			r.msgs <- m + "" // want `send on r\.msgs .* can block forever`
		}
	}()
	return r
}

// FetchLate counts the room, then takes one more ready message itself:
// the goroutine's room-many sends can now find the buffer full.
func FetchLate(ready, next func() (string, bool), batch int) *FetchResult {
	r := &FetchResult{msgs: make(chan string, batch)}
	room := batch - len(r.msgs)
	if m, ok := ready(); ok {
		r.msgs <- m // want `send on r\.msgs .* can block forever.*\[audit: `
	}
	go func() {
		defer close(r.msgs)
		for sent := 0; sent < room; sent++ {
			m, ok := next()
			if !ok {
				return
			}
			r.msgs <- m // want `send on r\.msgs .* can block forever`
		}
	}()
	return r
}

// A lister reports a failed start as its first value, then streams the
// rest: the first send of the only goroutine that sends finds the slot
// empty; the sends of the stream can find it full.
type ObjectInfo struct {
	Key string
	Err error
}

func ListObjects(start func() error, next func() (ObjectInfo, bool)) <-chan ObjectInfo {
	objects := make(chan ObjectInfo, 1)
	go func() {
		defer close(objects)
		if err := start(); err != nil {
			objects <- ObjectInfo{Err: err} // ok: the goroutine's first send, on an empty slot
			return
		}
		for {
			obj, ok := next()
			if !ok {
				return
			}
			objects <- obj // want `send on objects \(chan ObjectInfo, cap 1\) can block forever: its receiver is the caller ListObjects returns it to`
		}
	}()
	return objects
}

// ListObjectsAfterHeader sends a header first: the stream's sends then
// find the slot that the header may still hold.
func ListObjectsAfterHeader(next func() (ObjectInfo, bool)) <-chan ObjectInfo {
	objects := make(chan ObjectInfo, 1)
	go func() {
		defer close(objects)
		objects <- ObjectInfo{Key: "header"} // ok: the first send, on an empty slot
		for {
			obj, ok := next()
			if !ok {
				return
			}
			objects <- obj // want `send on objects \(chan ObjectInfo, cap 1\) can block forever`
		}
	}()
	return objects
}

// ListObjectsSeq streams through a range-over-func body that gives up on
// ctx: its sends come after the failed start's report, which still finds
// the slot empty.
func ListObjectsSeq(ctx context.Context, start func() error, seq func(yield func(ObjectInfo) bool)) <-chan ObjectInfo {
	objects := make(chan ObjectInfo, 1)
	go func() {
		defer close(objects)
		if err := start(); err != nil {
			objects <- ObjectInfo{Err: err} // ok: the goroutine's first send, on an empty slot
			return
		}
		for obj := range seq {
			select {
			case objects <- obj:
			case <-ctx.Done():
				objects <- ObjectInfo{Err: ctx.Err()} // want `send on objects \(chan ObjectInfo, cap 1\) can block forever: its receiver is the caller ListObjectsSeq returns it to, who can stop reading \(the goroutine's other send on it gives up then\)`
				return
			}
		}
	}()
	return objects
}

// A loop of two requests per broker sizes its buffer at two per broker.
type brokerLoad struct{ list, epoch []int }

func loadOffsets(loads map[string]brokerLoad, load func([]int) error) {
	results := make(chan error, 2*len(loads))
	issued := 0
	for _, bl := range loads {
		if len(bl.list) > 0 {
			issued++
			go func() { results <- load(bl.list) }() // ok: two slots per broker, at most two sends per broker
		}
		if len(bl.epoch) > 0 {
			issued++
			go func() { results <- load(bl.epoch) }() // ok: as above
		}
	}
}

func loadOffsetsThrice(loads map[string]brokerLoad, load func([]int) error) {
	results := make(chan error, 2*len(loads))
	for _, bl := range loads {
		go func() { results <- load(bl.list) }()  // want `send on results .* can block forever`
		go func() { results <- load(bl.epoch) }() // want `send on results .* can block forever`
		go func() { results <- load(nil) }()      // want `send on results .* can block forever`
	}
}

// A pool that grows starts a worker for each slot it adds: from the old
// size up to the new one, or from zero when the pool shrank and is built
// anew. The buffer it makes with the same choice has a slot for each
// worker, so the workers never wait for the receive loop that returns at
// the first error.
func growPoolOK(slots []string, old int) error {
	n := len(slots)
	start, add := old, n-old
	if add < 0 {
		start, add = 0, n
	}
	errc := make(chan error, add)
	for i := start; i < n; i++ {
		go func() { errc <- work() }() // ok: add slots for the n - start workers
	}
	for range add {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// growPoolShortBad rebuilds with one slot fewer than the workers it starts.
func growPoolShortBad(slots []string, old int) error {
	n := len(slots)
	start, add := old, n-old
	if add < 0 {
		start, add = 0, n-1
	}
	errc := make(chan error, add)
	for i := start; i < n; i++ {
		go func() { errc <- work() }() // want `send on errc \(chan error, cap add\) can block forever: growPoolShortBad can return without receiving it`
	}
	for range add {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// A stress test's stream writer sends opt.msgs buffers on a channel made
// with that many slots, from the goroutine started to run it once per
// stream: the reader that gives up on a bad buffer leaves no writer
// waiting. The writer and the make read opt through the literals that
// capture it.
type streamOptions struct{ conns, msgs int }

func stressStreamsOK(opt streamOptions, check func(int) bool) {
	writeAll := func(bufs chan<- int) {
		for i := 0; i < opt.msgs; i++ {
			bufs <- i // ok: opt.msgs slots for opt.msgs sends
		}
	}
	readAll := func(bufs <-chan int) {
		for b := range bufs {
			if !check(b) {
				return
			}
		}
	}
	stream := func() {
		bufs := make(chan int, opt.msgs)
		go func() {
			writeAll(bufs)
			close(bufs)
		}()
		readAll(bufs)
	}
	for range opt.conns {
		stream()
	}
}

// stressStreamsWrongBoundBad sizes the buffer by one option and writes by
// another.
func stressStreamsWrongBoundBad(opt streamOptions, check func(int) bool) {
	writeAll := func(bufs chan<- int) {
		for i := 0; i < opt.conns; i++ {
			bufs <- i // want `send on bufs \(chan<- int, cap opt\.msgs\) can block forever: its receiver the function literal in stressStreamsWrongBoundBad can return before draining it`
		}
	}
	readAll := func(bufs <-chan int) {
		for b := range bufs {
			if !check(b) {
				return
			}
		}
	}
	stream := func() {
		bufs := make(chan int, opt.msgs)
		go func() {
			writeAll(bufs)
			close(bufs)
		}()
		readAll(bufs)
	}
	stream()
}

// stressStreamsTwiceBad runs the writer twice on one buffer sized for one
// run.
func stressStreamsTwiceBad(opt streamOptions, check func(int) bool) {
	writeAll := func(bufs chan<- int) {
		for i := 0; i < opt.msgs; i++ {
			bufs <- i // want `send on bufs \(chan<- int, cap opt\.msgs\) can block forever: its receiver the function literal in stressStreamsTwiceBad can return before draining it`
		}
	}
	readAll := func(bufs <-chan int) {
		for b := range bufs {
			if !check(b) {
				return
			}
		}
	}
	stream := func() {
		bufs := make(chan int, opt.msgs)
		go func() {
			writeAll(bufs)
			writeAll(bufs)
			close(bufs)
		}()
		readAll(bufs)
	}
	stream()
}

// attachStreams copies stdin, stdout and stderr, one goroutine each, and
// waits for the two output copies: only they signal, and the buffer has a
// slot for each, so the copies finish even when an error from the remote
// side ends the wait first.
func attachStreams(stdin io.Reader, stdout, stderr io.Writer, remote io.ReadWriter, remoteErr io.Reader, errs <-chan error) error {
	done := make(chan struct{}, 2)
	cp := func(kind string, dst io.Writer, src io.Reader) {
		io.Copy(dst, src)
		if kind == "stdout" || "stderr" == kind {
			done <- struct{}{} // ok: the stdin copy never signals
		}
	}
	go cp("stdin", remote, stdin)
	go cp("stdout", stdout, remote)
	go cp("stderr", stderr, remoteErr)
	for range 2 {
		select {
		case <-done:
		case err := <-errs:
			return err
		}
	}
	return nil
}

// attachMirroredBad mirrors stdout to a second writer with one more copy
// that signals too: three values for two slots.
func attachMirroredBad(stdout, mirror io.Writer, remote io.Reader, errs <-chan error) error {
	done := make(chan struct{}, 2)
	cp := func(kind string, dst io.Writer, src io.Reader) {
		io.Copy(dst, src)
		if kind == "stdout" || kind == "stderr" {
			done <- struct{}{} // want `send on done \(chan struct\{\}, cap 2\) can block forever: attachMirroredBad can return without receiving it`
		}
	}
	go cp("stdout", stdout, remote)
	go cp("stdout", mirror, remote)
	go cp("stderr", stdout, remote)
	for range 2 {
		select {
		case <-done:
		case err := <-errs:
			return err
		}
	}
	return nil
}

// attachNamedBad takes the stream kinds from its caller: the pass cannot
// tell which copies signal.
func attachNamedBad(kinds [3]string, dst io.Writer, remote io.Reader, errs <-chan error) error {
	done := make(chan struct{}, 2)
	cp := func(kind string, dst io.Writer, src io.Reader) {
		io.Copy(dst, src)
		if kind == "stdout" || kind == "stderr" {
			done <- struct{}{} // want `send on done \(chan struct\{\}, cap 2\) can block forever: attachNamedBad can return without receiving it`
		}
	}
	go cp(kinds[0], dst, remote)
	go cp(kinds[1], dst, remote)
	go cp(kinds[2], dst, remote)
	for range 2 {
		select {
		case <-done:
		case err := <-errs:
			return err
		}
	}
	return nil
}
