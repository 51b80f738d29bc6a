// Package retrykit runs an operation until it succeeds. Retry calls it in
// place, on its caller's goroutine, and carries an InPlace fact; Detached
// runs it on a goroutine of its own and carries none.
package retrykit

import "time"

func Retry(op func() error, backoff time.Duration) { // want Retry:`calls parameters \[0\] in place`
	for op() != nil {
		time.Sleep(backoff)
	}
}

func Detached(op func() error) {
	go func() {
		for op() != nil {
		}
	}()
}
