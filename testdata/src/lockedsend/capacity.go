package lockedsend

import "sync"

// errc has room for its one send: the capacity rule baresend uses.
func localRoomOK(mu *sync.Mutex) int {
	errc := make(chan int, 1)
	mu.Lock()
	errc <- 1
	mu.Unlock()
	return <-errc
}

func localNoRoomBad(mu *sync.Mutex) {
	c := make(chan int)
	go func() { <-c }()
	mu.Lock()
	c <- 1 // want `send on c can block while mu is held`
	mu.Unlock()
}

// Putting back a token taken from the same channel cannot block.
func tokenReturnOK(mu *sync.Mutex, sem chan struct{}) {
	t := <-sem
	mu.Lock()
	sem <- t
	mu.Unlock()
}

// The drain before the send makes room: the channel keeps only the latest
// value, and its senders hold mu.
func latestValueOK(mu *sync.Mutex, updates []chan int, v int) {
	mu.Lock()
	defer mu.Unlock()
	for _, u := range updates {
		select {
		case <-u:
		default:
		}
		u <- v
	}
}
