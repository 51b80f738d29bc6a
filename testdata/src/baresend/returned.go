package baresend

import "context"

// A channel an exported function returns is read by its caller, who can
// stop reading: it cancels ctx and walks away, or stops at the first error.
// The function may hand out a channel an unexported helper makes, as long
// as it only returns it.

type record struct {
	key string
	err error
}

type recordStore interface {
	Scan(ctx context.Context, visit func(key string) bool) error
}

type catalog struct {
	live, archived recordStore
}

// Live and Archived stream the catalog's keys; stream makes the channel.
func (c *catalog) Live(ctx context.Context) <-chan record     { return c.stream(ctx, c.live) }
func (c *catalog) Archived(ctx context.Context) <-chan record { return c.stream(ctx, c.archived) }

// stream gives up on ctx for every key, which says that its reader may go
// away, but reports the scan's error with a bare send: a caller that
// cancelled leaves the goroutine there for good.
func (c *catalog) stream(ctx context.Context, st recordStore) <-chan record {
	out := make(chan record)
	go func() {
		defer close(out)
		err := st.Scan(ctx, func(key string) bool {
			if key == "" {
				out <- record{err: context.Canceled} // want `send on out \(chan record, unbuffered\) can block forever: its receiver is the caller \(\*catalog\)\.Live returns it to, who can stop reading \(the goroutine's other send on it gives up then\), and this send has no liveness case`
				return false
			}
			select {
			case out <- record{key: key}:
				return true
			case <-ctx.Done():
				return false
			}
		})
		if err != nil {
			out <- record{err: err} // want `send on out \(chan record, unbuffered\) can block forever: its receiver is the caller \(\*catalog\)\.Live returns it to, who can stop reading`
		}
	}()
	return out
}

// Tail hands out what follow makes, and follow's loop has no way out.
func (c *catalog) Tail(next func() (string, bool)) <-chan record { return follow(next) }

func follow(next func() (string, bool)) <-chan record {
	out := make(chan record)
	go func() {
		defer close(out)
		for {
			k, ok := next()
			if !ok {
				return
			}
			out <- record{key: k} // want `send on out \(chan record, unbuffered\) can block forever: its receiver is the caller \(\*catalog\)\.Tail returns it to, who can stop reading, and this loop has no liveness case`
		}
	}()
	return out
}

// Every send of the fixed stream gives up on ctx.
func (c *catalog) LiveOK(ctx context.Context) <-chan record { return c.streamOK(ctx, c.live) }

func (c *catalog) streamOK(ctx context.Context, st recordStore) <-chan record {
	out := make(chan record)
	go func() {
		defer close(out)
		send := func(r record) bool {
			select {
			case out <- r:
				return true
			case <-ctx.Done():
				return false
			}
		}
		if err := st.Scan(ctx, func(key string) bool { return send(record{key: key}) }); err != nil {
			send(record{err: err})
		}
	}()
	return out
}

// Lookup answers once, and nothing it sends gives up: a caller asking for
// one value is taken to read it.
func (c *catalog) Lookup(ctx context.Context, key string) <-chan record { return c.lookup(ctx, key) }

func (c *catalog) lookup(ctx context.Context, key string) <-chan record {
	out := make(chan record)
	go func() {
		err := c.live.Scan(ctx, func(k string) bool { return k != key })
		out <- record{key: key, err: err} // ok: one value for a caller who waits for it
	}()
	return out
}

// Count reads what feed makes itself, until it is closed: not a
// channel handed to callers, and its reader is in view.
func (c *catalog) Count(ctx context.Context) int { return count(c.feed(ctx)) }

func (c *catalog) feed(ctx context.Context) <-chan record {
	out := make(chan record)
	go func() {
		defer close(out)
		err := c.live.Scan(ctx, func(key string) bool {
			select {
			case out <- record{key: key}:
				return true
			case <-ctx.Done():
				return false
			}
		})
		if err != nil {
			out <- record{err: err} // ok here: feed's caller ranges over it to the end
		}
	}()
	return out
}

func count(in <-chan record) int {
	n := 0
	for range in {
		n++
	}
	return n
}

// A generator whose caller has no way to tell it to stop: Frames is handed
// only the bytes to split, and nothing the goroutine can see (no context,
// no other channel, no callback) would say that its reader has gone. A
// caller that stops ranging leaks it, but the fix is a new API; until then
// reading to the close is the caller's part: the audit tier.
func Frames(data []byte) <-chan []byte {
	out := make(chan []byte)
	go func() {
		defer close(out)
		for len(data) >= 2 {
			n := int(data[0])<<8 | int(data[1])
			if n+2 > len(data) {
				return
			}
			out <- data[2 : n+2] // want `\[audit: nothing its caller hands Frames \(no context, no other channel\) can tell the sender to stop: reading to the close is the caller's part\]`
			data = data[n+2:]
		}
	}()
	return out
}

// A zone transfer reads its connection until the last record; the
// transfer's configuration holds a dialer and timeouts, nothing that
// could stop it.
type zoneTransfer struct {
	conn    interface{ ReadRecord() (string, error) }
	timeout int
}

func (t *zoneTransfer) Records() <-chan string {
	out := make(chan string)
	go t.read(out)
	return out
}

func (t *zoneTransfer) read(out chan<- string) {
	defer close(out)
	for {
		r, err := t.conn.ReadRecord()
		if err != nil {
			return
		}
		out <- r // want `\[audit: nothing its caller hands \(\*zoneTransfer\)\.Records`
	}
}

// A lister whose client keeps the context it was opened with: the
// goroutine can reach it (l.client.opts.ctx) and does not select on it, so
// a caller that stops ranging and cancels still leaks it: reported.
type listOpts struct{ ctx context.Context }

type listClient struct{ opts *listOpts }

type bucketLister struct {
	client *listClient
	names  []string
}

func (c *listClient) BucketNames() <-chan string {
	out := make(chan string)
	l := &bucketLister{client: c}
	go func() {
		defer close(out)
		for _, n := range l.names {
			out <- n // want `send on out \(chan string, unbuffered\) can block forever: its receiver is the caller \(\*listClient\)\.BucketNames returns it to, who can stop reading, and this loop has no liveness case`
		}
	}()
	return out
}
