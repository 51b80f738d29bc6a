package baresend

// A writer that serves several queues and sets each to nil when it is
// closed, returning once all are nil, keeps receiving from every queue
// until that queue is closed: the check that lets it return is true only
// after the closes.

type packet struct{ id int }

type brokerConn interface{ Write(p packet) error }

// writeQueuesOK leaves only when both queues are closed; a failed write
// is reported and the loop goes on draining.
func writeQueuesOK(c brokerConn, priority, publish <-chan packet, failed func(error)) {
	for {
		if priority == nil && publish == nil {
			return
		}
		select {
		case p, ok := <-priority:
			if !ok {
				priority = nil
				continue
			}
			if err := c.Write(p); err != nil {
				failed(err)
			}
		case p, ok := <-publish:
			if !ok {
				publish = nil
				continue
			}
			if err := c.Write(p); err != nil {
				failed(err)
			}
		}
	}
}

func redirectOK(c brokerConn, in <-chan packet, failed func(error)) {
	priority := make(chan packet)
	publish := make(chan packet)
	go writeQueuesOK(c, priority, publish, failed)
	for p := range in {
		if p.id == 0 {
			priority <- p // ok: the writer drains priority until it is closed
			continue
		}
		publish <- p // ok: as above
	}
	close(priority)
	close(publish)
}

// writeQueuesOnErrorBad also returns when a write fails, with its queues
// still open.
func writeQueuesOnErrorBad(c brokerConn, priority, publish <-chan packet) {
	for {
		if priority == nil && publish == nil {
			return
		}
		select {
		case p, ok := <-priority:
			if !ok {
				priority = nil
				continue
			}
			if c.Write(p) != nil {
				return
			}
		case p, ok := <-publish:
			if !ok {
				publish = nil
				continue
			}
			if c.Write(p) != nil {
				return
			}
		}
	}
}

func redirectOnErrorBad(c brokerConn, in <-chan packet) {
	priority := make(chan packet)
	publish := make(chan packet)
	go writeQueuesOnErrorBad(c, priority, publish)
	for p := range in {
		if p.id == 0 {
			priority <- p // want `send on priority \(chan packet, unbuffered\) can block forever: its receiver writeQueuesOnErrorBad can return before draining it`
			continue
		}
		publish <- p // want `send on publish \(chan packet, unbuffered\) can block forever: its receiver writeQueuesOnErrorBad can return before draining it`
	}
	close(priority)
	close(publish)
}

// writeUntilLastBad sets its queue to nil on a packet it is sent, not on
// the close: after that packet it returns with the queue open.
func writeUntilLastBad(c brokerConn, queue <-chan packet) {
	for {
		if queue == nil {
			return
		}
		p, ok := <-queue
		if !ok {
			return
		}
		_ = c.Write(p)
		if p.id < 0 {
			queue = nil
		}
	}
}

func redirectUntilLastBad(c brokerConn, in []packet) {
	queue := make(chan packet)
	go writeUntilLastBad(c, queue)
	for _, p := range in {
		queue <- p // want `send on queue \(chan packet, unbuffered\) can block forever: its receiver writeUntilLastBad can return before draining it`
	}
	close(queue)
}

// startWriterOK runs the same writer as a function literal: the queues it
// sets to nil are variables it shares with startWriterOK, which sets them
// once, before starting it.
func startWriterOK(c brokerConn, priority, publish <-chan packet, failed func(error)) {
	go func() {
		for {
			if priority == nil && publish == nil {
				return
			}
			select {
			case p, ok := <-priority:
				if !ok {
					priority = nil
					continue
				}
				if err := c.Write(p); err != nil {
					failed(err)
				}
			case p, ok := <-publish:
				if !ok {
					publish = nil
					continue
				}
				if err := c.Write(p); err != nil {
					failed(err)
				}
			}
		}
	}()
}

func redirectToLiteralOK(c brokerConn, in <-chan packet, failed func(error)) {
	priority := make(chan packet)
	publish := make(chan packet)
	startWriterOK(c, priority, publish, failed)
	for p := range in {
		if p.id == 0 {
			priority <- p // ok: the writer drains priority until it is closed
			continue
		}
		publish <- p // ok: as above
	}
	close(priority)
	close(publish)
}

// startWriterDropBad also stops serving the priority queue when a write
// on it fails: it then returns once publish is closed, with priority open.
func startWriterDropBad(c brokerConn, priority, publish <-chan packet) {
	go func() {
		for {
			if priority == nil && publish == nil {
				return
			}
			select {
			case p, ok := <-priority:
				if !ok {
					priority = nil
					continue
				}
				if c.Write(p) != nil {
					priority = nil
				}
			case p, ok := <-publish:
				if !ok {
					publish = nil
					continue
				}
				_ = c.Write(p)
			}
		}
	}()
}

func redirectDropBad(c brokerConn, in <-chan packet) {
	priority := make(chan packet)
	publish := make(chan packet)
	startWriterDropBad(c, priority, publish)
	for p := range in {
		if p.id == 0 {
			priority <- p // want `send on priority \(chan packet, unbuffered\) can block forever: its receiver the function literal in startWriterDropBad can return before draining it`
			continue
		}
		publish <- p // ok: publish is set to nil only once it is closed
	}
	close(priority)
	close(publish)
}
