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
