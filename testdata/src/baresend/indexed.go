package baresend

// A header verifier checks a batch in two halves at once and hands the
// results back in the batch's order: a collector takes each half's
// answers as they come and sends the next one in order once it is known.
// The results channel has a slot per header, and the collector sends
// errs[out] with out one larger each time: indexing errs panics past the
// last header, so it sends at most one value per slot, and the caller
// may stop reading at any time.

type header struct{ number int }

func verifyHalf(hs []header) <-chan error {
	out := make(chan error, len(hs))
	for _, h := range hs {
		out <- checkHeader(h) // ok: one value per header into a slot per header
	}
	return out
}

func checkHeader(h header) error {
	if h.number < 0 {
		return errBadHeader
	}
	return nil
}

var errBadHeader = errorString("bad header")

type errorString string

func (e errorString) Error() string { return string(e) }

// VerifyHeaders sends each header's result once, in order. The abort
// channel it returns beside the results is another channel: the caller
// can only receive from the results.
func VerifyHeaders(headers []header) (chan<- struct{}, <-chan error) {
	abort, results := make(chan struct{}), make(chan error, len(headers))
	half := len(headers) / 2
	go func() {
		var (
			old, new, out = 0, half, 0
			errs          = make([]error, len(headers))
			done          = make([]bool, len(headers))
			oldResults    = verifyHalf(headers[:half])
			newResults    = verifyHalf(headers[half:])
		)
		for {
			for ; done[out]; out++ {
				results <- errs[out] // ok: one send per index of errs, which has a slot per header
				if out == len(headers)-1 {
					return
				}
			}
			select {
			case err := <-oldResults:
				errs[old], done[old] = err, true
				old++
			case err := <-newResults:
				errs[new], done[new] = err, true
				new++
			case <-abort:
				return
			}
		}
	}()
	return abort, results
}

// VerifyHeadersShared hands the results out a second time as a channel
// the caller may send on: the caller's own values can fill the slots.
func VerifyHeadersShared(headers []header, abort <-chan struct{}) (chan error, <-chan error) {
	results := make(chan error, len(headers))
	go func() {
		errs := make([]error, len(headers))
		for out := 0; out < len(headers) && !aborted(abort); out++ {
			results <- errs[out] // want `send on results \(chan error, cap len\(headers\)\) can block forever: its receiver is the caller VerifyHeadersShared returns it to, who can stop reading`
		}
	}()
	return results, results
}

// VerifyHeadersTwice starts its count again on every round: the second
// round sends into slots the first one filled.
func VerifyHeadersTwice(headers []header, rounds int, abort <-chan struct{}) <-chan error {
	results := make(chan error, len(headers))
	go func() {
		errs := make([]error, len(headers))
		for range rounds {
			if aborted(abort) {
				return
			}
			for out := 0; out < len(headers); out++ {
				results <- errs[out] // want `send on results \(chan error, cap len\(headers\)\) can block forever: its receiver is the caller VerifyHeadersTwice returns it to, who can stop reading`
			}
		}
	}()
	return results
}

// VerifyHeadersRetrying sends a header's result again when asked to: the
// count steps back to the header it sent.
func VerifyHeadersRetrying(headers []header, retry func() bool, abort <-chan struct{}) <-chan error {
	results := make(chan error, len(headers))
	go func() {
		errs := make([]error, len(headers))
		for out := 0; out < len(headers) && !aborted(abort); {
			results <- errs[out] // want `send on results \(chan error, cap len\(headers\)\) can block forever: its receiver is the caller VerifyHeadersRetrying returns it to, who can stop reading`
			sent := out
			out++
			if retry() {
				out = sent
			}
		}
	}()
	return results
}

// VerifyHeadersRewinding keeps a mark to rewind to: out and mark step
// together, so the count can go back to a header it already sent.
func VerifyHeadersRewinding(headers []header, rewind func() bool, abort <-chan struct{}) <-chan error {
	results := make(chan error, len(headers))
	go func() {
		errs := make([]error, len(headers))
		out, mark := 0, 0
		for out < len(headers) && !aborted(abort) {
			results <- errs[out] // want `send on results \(chan error, cap len\(headers\)\) can block forever: its receiver is the caller VerifyHeadersRewinding returns it to, who can stop reading`
			if rewind() {
				out = mark + 1
			} else {
				mark = out
				out++
			}
		}
	}()
	return results
}

// VerifyHeadersSkipping goes back to the send without stepping when a
// result is a failure, and sends that result again.
func VerifyHeadersSkipping(headers []header, abort <-chan struct{}) <-chan error {
	results := make(chan error, len(headers))
	go func() {
		errs := make([]error, len(headers))
		for out := 0; out < len(headers) && !aborted(abort); {
			results <- errs[out] // want `send on results \(chan error, cap len\(headers\)\) can block forever: its receiver is the caller VerifyHeadersSkipping returns it to, who can stop reading`
			if errs[out] != nil {
				continue
			}
			out++
		}
	}()
	return results
}

// VerifyHeadersPadded indexes a slice one longer than the channel.
func VerifyHeadersPadded(headers []header, abort <-chan struct{}) <-chan error {
	results := make(chan error, len(headers))
	go func() {
		errs := make([]error, len(headers)+1)
		for out := 0; out < len(errs) && !aborted(abort); out++ {
			results <- errs[out] // want `send on results \(chan error, cap len\(headers\)\) can block forever: its receiver is the caller VerifyHeadersPadded returns it to, who can stop reading`
		}
	}()
	return results
}

// aborted reports whether abort is closed.
func aborted(abort <-chan struct{}) bool {
	select {
	case <-abort:
		return true
	default:
		return false
	}
}
