package baresend

import "net"

// A relay serves each client with a handler loop and a reader goroutine
// that hands it the messages it decodes. The reader's error is its last
// word: it reports it on errs and returns, and the handler leaves only
// once it has taken that error. By then the reader is past every send on
// messages, so none is left waiting, unbuffered as the channel is.

type relayMsg struct{ kind byte }

func readRelayMsg(conn net.Conn) (relayMsg, error) {
	b := make([]byte, 1)
	_, err := conn.Read(b)
	return relayMsg{kind: b[0]}, err
}

func relayReader(conn net.Conn, messages chan<- relayMsg, errs chan<- error) {
	for {
		msg, err := readRelayMsg(conn)
		if err != nil {
			errs <- err
			return
		}
		messages <- msg // ok: the handler returns only on the error sent after it
	}
}

func relayHandler(conn net.Conn, serve func(relayMsg) bool) {
	messages := make(chan relayMsg)
	errs := make(chan error, 1)
	go relayReader(conn, messages, errs)
	for {
		select {
		case msg := <-messages:
			if !serve(msg) {
				conn.Close() // the reader's next read fails: wait for its error
			}
		case <-errs:
			conn.Close()
			return
		}
	}
}

// A reader that reports a bad message and goes on sends again after its
// report: the handler can take the report and leave while the reader
// waits on its next message.
func chattyReader(conn net.Conn, messages chan<- relayMsg, errs chan<- error) {
	for {
		msg, err := readRelayMsg(conn)
		if err != nil {
			errs <- err // want `send on errs \(chan<- error, cap 1\) can block forever: chattyHandler can return before receiving every value`
			continue
		}
		messages <- msg // want `send on messages \(chan<- relayMsg, unbuffered\) can block forever: chattyHandler can return before receiving every value`
	}
}

func chattyHandler(conn net.Conn, serve func(relayMsg)) {
	messages := make(chan relayMsg)
	errs := make(chan error, 1)
	go chattyReader(conn, messages, errs)
	for {
		select {
		case msg := <-messages:
			serve(msg)
		case <-errs:
			conn.Close()
			return
		}
	}
}

// A handler whose error channel a keep-alive also reports on can leave on
// the keep-alive's error while the reader still has a message to hand it.
func keptReader(conn net.Conn, messages chan<- relayMsg, errs chan<- error) {
	for {
		msg, err := readRelayMsg(conn)
		if err != nil {
			errs <- err
			return
		}
		messages <- msg // want `send on messages \(chan<- relayMsg, unbuffered\) can block forever: keptHandler can return before receiving every value`
	}
}

func keptHandler(conn net.Conn, ping func() error, serve func(relayMsg)) {
	messages := make(chan relayMsg)
	errs := make(chan error, 2)
	go keptReader(conn, messages, errs)
	go func() {
		errs <- ping()
	}()
	for {
		select {
		case msg := <-messages:
			serve(msg)
		case <-errs:
			conn.Close()
			return
		}
	}
}

// Two readers on one connection each have a last word, but the handler
// leaves on the first: the other reader can be stranded.
func pairedReader(conn net.Conn, messages chan<- relayMsg, errs chan<- error) {
	for {
		msg, err := readRelayMsg(conn)
		if err != nil {
			errs <- err
			return
		}
		messages <- msg // want `send on messages \(chan<- relayMsg, unbuffered\) can block forever: pairedHandler can return before receiving every value`
	}
}

func pairedHandler(conn net.Conn, serve func(relayMsg)) {
	messages := make(chan relayMsg)
	errs := make(chan error, 2)
	for range 2 {
		go pairedReader(conn, messages, errs)
	}
	for {
		select {
		case msg := <-messages:
			serve(msg)
		case <-errs:
			conn.Close()
			return
		}
	}
}
