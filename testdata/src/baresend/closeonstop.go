package baresend

// A buffer whose loop closes its control channel on the way out: a Resize
// that comes too late is woken by the close and panics. That is a bug, but
// not a send that waits for good: the audit tier says which. A loop that
// closes it on only some ways out leaves the others waiting: a default
// finding.

type elasticBuffer struct {
	input  chan string
	resize chan int
	items  []string
	size   int
}

func newElasticBuffer() *elasticBuffer {
	b := &elasticBuffer{input: make(chan string), resize: make(chan int)}
	go b.run()
	return b
}

func (b *elasticBuffer) run() {
	input := b.input
	for input != nil {
		select {
		case item, open := <-input:
			if !open {
				input = nil
				continue
			}
			b.items = append(b.items, item)
		case b.size = <-b.resize:
		}
	}
	close(b.resize)
}

func (b *elasticBuffer) Resize(n int) {
	b.resize <- n // want `\[audit: its receiver \(\*elasticBuffer\)\.run closes the channel as it stops, unless it saw it closed: a send left behind panics rather than waits\]`
}

// fragileBuffer closes its control channel only when its input is
// closed; a poisoned item makes it return with the channel open.
type fragileBuffer struct {
	input  chan string
	resize chan int
	size   int
}

func newFragileBuffer() *fragileBuffer {
	b := &fragileBuffer{input: make(chan string), resize: make(chan int)}
	go b.run()
	return b
}

func (b *fragileBuffer) run() {
	for {
		select {
		case item, open := <-b.input:
			if !open {
				close(b.resize)
				return
			}
			if item == "poison" {
				return
			}
		case b.size = <-b.resize:
		}
	}
}

func (b *fragileBuffer) Resize(n int) {
	b.resize <- n // want `send on b\.resize \(chan int, unbuffered\) can block forever: its receiver \(\*fragileBuffer\)\.run can stop receiving`
}

// A fetcher hands each wanted key to its workers with a channel for the
// result, and a collector reads the results until it has one per key
// handed out, closes the channel and leaves. Its only other way out is the
// end of the range, which comes only once the channel is closed: a worker
// that answered twice would panic, not wait for good.
type fetchRequest struct {
	key    string
	result chan<- fetchResult
}

type fetchResult struct {
	key  string
	body []byte
	err  error
}

type fetcher struct {
	requests chan fetchRequest
	closing  chan struct{}
	deliver  func([]fetchResult)
}

func (f *fetcher) worker() {
	for {
		select {
		case <-f.closing:
			return
		case req := <-f.requests:
			body, err := fetchKey(req.key)
			req.result <- fetchResult{key: req.key, body: body, err: err} // want `\[audit: its receiver the function literal in \(\*fetcher\)\.Fetch closes the channel as it stops, unless it saw it closed: a send left behind panics`
		}
	}
}

func fetchKey(key string) ([]byte, error) { return []byte(key), nil }

func (f *fetcher) Fetch(keys []string) {
	results := make(chan fetchResult, len(keys))
	sent := 0
	for _, k := range keys {
		select {
		case f.requests <- fetchRequest{key: k, result: results}:
			sent++
		case <-f.closing:
		}
	}
	if sent == 0 {
		return
	}
	go func() {
		var got []fetchResult
		for res := range results {
			got = append(got, res)
			if len(got) >= sent {
				close(results)
				break
			}
		}
		f.deliver(got)
	}()
}

// hastyFetcher's collector gives up at the first error and leaves the
// channel open: a worker still holding a key of the same call waits for
// good.
type hastyRequest struct {
	key    string
	result chan<- fetchResult
}

type hastyFetcher struct {
	requests chan hastyRequest
	closing  chan struct{}
	deliver  func([]fetchResult)
}

func (f *hastyFetcher) worker() {
	for {
		select {
		case <-f.closing:
			return
		case req := <-f.requests:
			body, err := fetchKey(req.key)
			req.result <- fetchResult{key: req.key, body: body, err: err} // want `send on req\.result \(chan<- fetchResult, unbuffered\) can block forever: its receiver the function literal in \(\*hastyFetcher\)\.Fetch can stop receiving`
		}
	}
}

func (f *hastyFetcher) Fetch(keys []string) {
	results := make(chan fetchResult)
	sent := 0
	for _, k := range keys {
		select {
		case f.requests <- hastyRequest{key: k, result: results}:
			sent++
		case <-f.closing:
		}
	}
	go func() {
		var got []fetchResult
		for res := range results {
			if res.err != nil {
				return
			}
			got = append(got, res)
			if len(got) >= sent {
				close(results)
				break
			}
		}
		f.deliver(got)
	}()
}
