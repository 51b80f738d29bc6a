// Package cgocall uses cgo next to a channel send.
package cgocall

// #include <stdlib.h>
import "C"

// Notifier tells a watcher about allocations.
type Notifier struct{ events chan int }

// Alloc allocates through C and notifies the watcher with a bare send.
func (n *Notifier) Alloc(size int) {
	p := C.malloc(C.size_t(size))
	C.free(p)
	n.events <- size
}
