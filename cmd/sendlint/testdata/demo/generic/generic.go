// Package generic sends from generic code.
package generic

// Relay forwards values to a subscriber's channel of any element type.
type Relay[T any] struct {
	out chan T
}

// NewRelay makes a relay with a small buffer.
func NewRelay[T any]() *Relay[T] { return &Relay[T]{out: make(chan T, 4)} }

// Push blocks once the subscriber stops reading.
func (r *Relay[T]) Push(v T) {
	r.out <- v
}

// First returns the first of many answers and leaks the other senders.
func First[T any](fns []func() T) T {
	ch := make(chan T)
	for _, fn := range fns {
		go func() { ch <- fn() }()
	}
	return <-ch
}
