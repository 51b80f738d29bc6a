package baresend

// A gateway finder asks two directories at once and takes the first
// gateway either finds. Each search walks its directory through a
// callback that may run once per device, but a flag lets only the first
// match through and the search reports "none" only when nothing matched:
// one value per search, two searches, two slots. The finder returns on
// the first gateway and leaves the other search's value in the buffer.

type gateway struct{ addr string }

type directory interface {
	Visit(func(dev string))
}

func matchGateway(dev string) *gateway {
	if dev == "" {
		return nil
	}
	return &gateway{addr: dev}
}

func findGateway(primary, fallback directory) *gateway {
	found := make(chan *gateway, 2)
	go searchDirectory(primary, found)
	go searchDirectory(fallback, found)
	for i := 0; i < cap(found); i++ {
		if g := <-found; g != nil {
			return g
		}
	}
	return nil
}

func searchDirectory(dir directory, out chan<- *gateway) {
	if dir == nil {
		out <- nil
		return
	}
	matched := false
	dir.Visit(func(dev string) {
		if matched {
			return
		}
		if g := matchGateway(dev); g != nil {
			out <- g
			matched = true
		}
	})
	if !matched {
		out <- nil
	}
}

// findAnyGateway's searches report every match: a directory with two
// gateways fills the buffer on its own, and the search still running
// when the finder returns waits for good.
func findAnyGateway(primary, fallback directory) *gateway {
	found := make(chan *gateway, 2)
	go searchEveryMatch(primary, found)
	go searchEveryMatch(fallback, found)
	for i := 0; i < cap(found); i++ {
		if g := <-found; g != nil {
			return g
		}
	}
	return nil
}

func searchEveryMatch(dir directory, out chan<- *gateway) {
	matched := false
	dir.Visit(func(dev string) {
		if g := matchGateway(dev); g != nil {
			out <- g // want `send on out \(chan<- \*gateway, cap 2\) can block forever: findAnyGateway can return before receiving every value`
			matched = true
		}
	})
	if !matched {
		out <- nil // want `send on out \(chan<- \*gateway, cap 2\) can block forever: findAnyGateway can return before receiving every value`
	}
}

// findLateGateway's searches hand each match to a hook before they set
// the flag, and the hook may walk the directory again (to list the
// gateway's peers), running the callback while the flag is still false:
// a second match gets through.
func findLateGateway(primary, fallback directory, onMatch func(dir directory, dev string)) *gateway {
	found := make(chan *gateway, 2)
	go searchThenMark(primary, found, onMatch)
	go searchThenMark(fallback, found, onMatch)
	for i := 0; i < cap(found); i++ {
		if g := <-found; g != nil {
			return g
		}
	}
	return nil
}

func searchThenMark(dir directory, out chan<- *gateway, onMatch func(dir directory, dev string)) {
	matched := false
	dir.Visit(func(dev string) {
		if matched {
			return
		}
		if g := matchGateway(dev); g != nil {
			out <- g // want `send on out \(chan<- \*gateway, cap 2\) can block forever: findLateGateway can return before receiving every value`
			onMatch(dir, dev)
			matched = true
		}
	})
	if !matched {
		out <- nil // want `send on out \(chan<- \*gateway, cap 2\) can block forever: findLateGateway can return before receiving every value`
	}
}
