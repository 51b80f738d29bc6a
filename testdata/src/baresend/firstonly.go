package baresend

// A configuration subscription reads its id from the stream's first
// response, on a channel with one slot, and hands every response to a
// handler. The goroutine that reads the stream sends the id only while a
// flag says the response is the first, and clears the flag as it sends:
// one value, into one slot, whatever the caller does after.

type configResponse struct {
	id    string
	items map[string]string
}

type configStream interface {
	Recv() (*configResponse, error)
}

func subscribeConfig(stream configStream, handle func(map[string]string)) string {
	ids := make(chan string, 1)
	go func() {
		first := true
		for {
			rsp, err := stream.Recv()
			if err != nil {
				return
			}
			if first {
				ids <- rsp.id // ok: the first response only
				first = false
			}
			handle(rsp.items)
		}
	}()
	return <-ids
}

// The same, with the flag read the other way round.
func subscribeConfigSeen(stream configStream, handle func(map[string]string)) string {
	ids := make(chan string, 1)
	go func() {
		seen := false
		for {
			rsp, err := stream.Recv()
			if err != nil {
				return
			}
			if !seen {
				seen = true
				ids <- rsp.id // ok: the first response only
			}
			handle(rsp.items)
		}
	}()
	return <-ids
}

// Near misses.

// The flag is never cleared: every response sends.
func subscribeConfigUncleared(stream configStream, handle func(map[string]string)) string {
	ids := make(chan string, 1)
	go func() {
		first := true
		for {
			rsp, err := stream.Recv()
			if err != nil {
				return
			}
			if first {
				ids <- rsp.id // want `send on ids \(chan string, cap 1\) can block forever: subscribeConfigUncleared can return before receiving every value`
			}
			handle(rsp.items)
		}
	}()
	return <-ids
}

// A resubscription sets the flag again: the next response sends again.
func subscribeConfigResubscribing(stream configStream, handle func(map[string]string)) string {
	ids := make(chan string, 1)
	go func() {
		first := true
		for {
			rsp, err := stream.Recv()
			if err != nil {
				return
			}
			if rsp.id == "" {
				first = true // the server restarted the subscription
				continue
			}
			if first {
				ids <- rsp.id // want `send on ids \(chan string, cap 1\) can block forever: subscribeConfigResubscribing can return before receiving every value`
				first = false
			}
			handle(rsp.items)
		}
	}()
	return <-ids
}

// The flag is cleared on one way on from the send only.
func subscribeConfigClearedIfItems(stream configStream, handle func(map[string]string)) string {
	ids := make(chan string, 1)
	go func() {
		first := true
		for {
			rsp, err := stream.Recv()
			if err != nil {
				return
			}
			if first {
				ids <- rsp.id // want `send on ids \(chan string, cap 1\) can block forever: subscribeConfigClearedIfItems can return before receiving every value`
				if len(rsp.items) > 0 {
					first = false
				}
			}
			handle(rsp.items)
		}
	}()
	return <-ids
}

// The first response's items are each sent, in a loop inside the flag's
// arm: the flag lets the loop in once, but the loop sends many.
func subscribeConfigItems(stream configStream, handle func(map[string]string)) []string {
	keys := make(chan string, 1)
	go func() {
		first := true
		for {
			rsp, err := stream.Recv()
			if err != nil {
				return
			}
			if first {
				for k := range rsp.items {
					keys <- k // want `send on keys \(chan string, cap 1\) can block forever: subscribeConfigItems can return before receiving every value`
				}
				first = false
			}
			handle(rsp.items)
		}
	}()
	return []string{<-keys}
}
