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
	b.resize <- n // want `\[audit: its receiver \(\*elasticBuffer\)\.run closes the channel as it stops: a send left behind panics rather than waits\]`
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
