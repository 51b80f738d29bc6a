// Package workerpool is another module: a pool that hands work to its own
// goroutines over a channel.
package workerpool

type Pool struct{ work chan func() }

func New(n int) *Pool {
	p := &Pool{work: make(chan func())}
	for range n {
		go func() {
			for f := range p.work {
				f()
			}
		}()
	}
	return p
}

// Submit waits for a free worker.
func (p *Pool) Submit(f func()) { p.work <- f }
