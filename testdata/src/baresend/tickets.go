package baresend

import (
	"errors"
	"sync/atomic"
)

// A fee oracle fetches a range of blocks with a few workers. The workers
// take block numbers from one shared counter, each number once, and send
// one result per number; the results channel holds as many values as
// there are numbers, so when the oracle returns on the first error the
// workers still running find room for what is left and exit.

type blockFees struct {
	number uint64
	err    error
}

func fetchBlock(n uint64) *blockFees { return &blockFees{number: n} }

const maxFetchers = 4

// feeHistory numbers its tickets from oldest to last, both included.
func feeHistory(last, blocks uint64) ([]uint64, error) {
	oldest := last + 1 - blocks
	var next atomic.Uint64
	next.Store(oldest)
	results := make(chan *blockFees, blocks)
	for i := 0; i < maxFetchers && i < int(blocks); i++ {
		go func() {
			for {
				n := next.Add(1) - 1
				if n > last {
					return
				}
				if n%2 == 0 {
					results <- fetchBlock(n)
				} else {
					results <- &blockFees{number: n, err: errors.New("odd")}
				}
			}
		}()
	}
	var out []uint64
	for ; blocks > 0; blocks-- {
		f := <-results
		if f.err != nil {
			return nil, f.err
		}
		out = append(out, f.number)
	}
	return out, nil
}

// fetchAll hands out indexes into urls through a counter that starts at
// zero, with the old atomic functions.
func fetchAll(urls []string) error {
	var next int32
	errc := make(chan error, len(urls))
	for range 3 {
		go func() {
			for {
				i := int(atomic.AddInt32(&next, 1) - 1)
				if i >= len(urls) {
					return
				}
				errc <- fetchURL(urls[i])
			}
		}()
	}
	for range urls {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

func fetchURL(string) error { return nil }

// feeHistoryOneShort sizes the buffer one short of its tickets: when the
// oracle gives up at once, the last worker's send has no room.
func feeHistoryOneShort(last, blocks uint64) error {
	oldest := last + 1 - blocks
	var next atomic.Uint64
	next.Store(oldest)
	results := make(chan *blockFees, blocks-1)
	for range maxFetchers {
		go func() {
			for {
				n := next.Add(1) - 1
				if n > last {
					return
				}
				results <- fetchBlock(n) // want `send on results \(chan \*blockFees, cap blocks \- 1\) can block forever: feeHistoryOneShort can return before receiving every value`
			}
		}()
	}
	for ; blocks > 0; blocks-- {
		if f := <-results; f.err != nil {
			return f.err
		}
	}
	return nil
}

// fetchAllRewound lets a worker turn the counter back: a number can be
// handed out twice, and the sends outnumber the slots.
func fetchAllRewound(urls []string) error {
	var next atomic.Int64
	errc := make(chan error, len(urls))
	for range 3 {
		go func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(urls)) {
					return
				}
				err := fetchURL(urls[i])
				if err != nil {
					next.Store(0)
				}
				errc <- err // want `send on errc \(chan error, cap len\(urls\)\) can block forever: fetchAllRewound can return before receiving every value`
			}
		}()
	}
	for range urls {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// fetchAllTwice sends two values for some numbers.
func fetchAllTwice(urls []string) error {
	var next atomic.Int64
	errc := make(chan error, len(urls))
	for range 3 {
		go func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(urls)) {
					return
				}
				err := fetchURL(urls[i])
				errc <- err // want `send on errc \(chan error, cap len\(urls\)\) can block forever: fetchAllTwice can return before receiving every value`
				if err != nil {
					errc <- err // want `send on errc \(chan error, cap len\(urls\)\) can block forever: fetchAllTwice can return before receiving every value`
				}
			}
		}()
	}
	for range urls {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// fetchRounds fetches urls three times over into one buffer sized for
// one round, each round with a counter of its own: every number comes
// round three times.
func fetchRounds(urls []string) error {
	errc := make(chan error, len(urls))
	for range 3 {
		var next atomic.Int64
		go func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(urls)) {
					return
				}
				errc <- fetchURL(urls[i]) // want `send on errc \(chan error, cap len\(urls\)\) can block forever: fetchRounds can return before receiving every value`
			}
		}()
	}
	for range urls {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// fetchRewound sets one counter back to zero at the start of each round.
func fetchRewound(urls []string) error {
	errc := make(chan error, len(urls))
	var next atomic.Int64
	for range 3 {
		next.Store(0)
		go func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(urls)) {
					return
				}
				errc <- fetchURL(urls[i]) // want `send on errc \(chan error, cap len\(urls\)\) can block forever: fetchRewound can return before receiving every value`
			}
		}()
	}
	for range urls {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}
