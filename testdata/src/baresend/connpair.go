package baresend

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
)

// An application server serves each connection with a pair of goroutines:
// a reader that runs requests under the application's lock and queues
// the responses, and a writer that writes them out. Each reports its end
// on closeConn, which has a slot for each, and a third goroutine closes
// the connection at the first report. The writer also reports every
// exception response the application gives, and goes on: a third value,
// in a two-slot buffer read once. The writer's reports are the sends to
// fix (its end can follow an exception report in one run); the reader's
// end, reported once, on a read error or from the deferred recover of a
// panic, blocks only after the writer took its slot.

type appRequest struct{ body string }

type appResponse struct {
	body      string
	exception bool
}

type appServer struct {
	appMtx sync.Mutex
	ln     net.Listener
	handle func(appRequest) appResponse
}

func (s *appServer) acceptConnections() {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		closeConn := make(chan error, 2)
		responses := make(chan appResponse, 1000)
		go s.handleRequests(closeConn, conn, responses)
		go s.handleResponses(closeConn, conn, responses)
		go s.waitForClose(closeConn, conn)
	}
}

func (s *appServer) handleRequests(closeConn chan error, conn io.Reader, responses chan<- appResponse) {
	defer func() {
		if r := recover(); r != nil {
			closeConn <- fmt.Errorf("recovered from panic: %v", r) // want `\[audit: the buffer holds a value from every run and this run sends only this one`
			s.appMtx.Unlock()
		}
	}()
	rd := bufio.NewReader(conn)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			if err == io.EOF {
				closeConn <- err // want `\[audit: the buffer holds a value from every run and this run sends only this one`
			} else {
				closeConn <- fmt.Errorf("error reading message: %w", err) // want `\[audit: the buffer holds a value from every run and this run sends only this one`
			}
			return
		}
		s.appMtx.Lock()
		responses <- s.handle(appRequest{body: line}) // want `send on responses \(chan<- appResponse, cap 1000\) can block forever: its receiver \(\*appServer\)\.handleResponses can return before draining it$`
		s.appMtx.Unlock()
	}
}

func (s *appServer) handleResponses(closeConn chan error, conn io.Writer, responses <-chan appResponse) {
	w := bufio.NewWriter(conn)
	for {
		res := <-responses
		if _, err := w.WriteString(res.body); err != nil {
			closeConn <- fmt.Errorf("error writing message: %w", err) // want `send on closeConn \(chan error, cap 2\) can block forever: its receiver \(\*appServer\)\.waitForClose can return before draining it$`
			return
		}
		if res.exception {
			closeConn <- errors.New(res.body) // want `send on closeConn \(chan error, cap 2\) can block forever`
		}
	}
}

func (s *appServer) waitForClose(closeConn chan error, conn net.Conn) {
	<-closeConn
	conn.Close()
}

// A reader that logs after it reports its end can still panic in the
// log call, and then report again from its recover: two values from one
// run, so neither of its sends is alone.
type loggedServer struct {
	ln  net.Listener
	log func(string)
}

func (s *loggedServer) acceptConnections() {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		closeConn := make(chan error, 2)
		go s.handleRequests(closeConn, conn)
		go s.handleResponses(closeConn, conn)
		go func() {
			<-closeConn
			conn.Close()
		}()
	}
}

func (s *loggedServer) handleRequests(closeConn chan error, conn io.Reader) {
	defer func() {
		if r := recover(); r != nil {
			closeConn <- fmt.Errorf("recovered from panic: %v", r) // want `send on closeConn \(chan error, cap 2\) can block forever: its receiver the function literal in \(\*loggedServer\)\.acceptConnections can return before draining it$`
		}
	}()
	_, err := io.ReadAll(conn)
	closeConn <- err // want `send on closeConn \(chan error, cap 2\) can block forever: its receiver the function literal in \(\*loggedServer\)\.acceptConnections can return before draining it$`
	s.log("reader done")
}

func (s *loggedServer) handleResponses(closeConn chan error, conn io.Writer) {
	_, err := conn.Write([]byte("bye\n"))
	closeConn <- err // want `\[audit: the buffer holds a value from every run and this run sends only this one`
}

// A reader whose deferred closure reports its end on every return, not
// only on a panic, sends twice when it also reports a read error.
type doubleServer struct{ ln net.Listener }

func (s *doubleServer) acceptConnections() {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		closeConn := make(chan error, 2)
		go s.handleRequests(closeConn, conn)
		go s.handleResponses(closeConn, conn)
		go func() {
			<-closeConn
			conn.Close()
		}()
	}
}

func (s *doubleServer) handleRequests(closeConn chan error, conn io.Reader) {
	defer func() {
		closeConn <- io.EOF // want `send on closeConn \(chan error, cap 2\) can block forever: its receiver the function literal in \(\*doubleServer\)\.acceptConnections can return before draining it$`
	}()
	if _, err := io.ReadAll(conn); err != nil {
		closeConn <- err // want `send on closeConn \(chan error, cap 2\) can block forever: its receiver the function literal in \(\*doubleServer\)\.acceptConnections can return before draining it$`
	}
}

func (s *doubleServer) handleResponses(closeConn chan error, conn io.Writer) {
	_, err := conn.Write([]byte("bye\n"))
	closeConn <- err // want `\[audit: the buffer holds a value from every run and this run sends only this one`
}

// A reader that complains through a helper on every empty line sends as
// many values a run as it reads such lines: the helper's send is not
// alone, and the writer's one report blocks only after it.
type chattyServer struct{ ln net.Listener }

func (s *chattyServer) acceptConnections() {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		closeConn := make(chan error, 2)
		go s.handleRequests(closeConn, conn)
		go s.handleResponses(closeConn, conn)
		go func() {
			<-closeConn
			conn.Close()
		}()
	}
}

func (s *chattyServer) handleRequests(closeConn chan error, conn io.Reader) {
	rd := bufio.NewReader(conn)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			return
		}
		if line == "\n" {
			s.complain(closeConn)
		}
	}
}

func (s *chattyServer) complain(closeConn chan error) {
	closeConn <- errors.New("empty line") // want `send on closeConn \(chan error, cap 2\) can block forever: its receiver the function literal in \(\*chattyServer\)\.acceptConnections can return before draining it$`
}

func (s *chattyServer) handleResponses(closeConn chan error, conn io.Writer) {
	_, err := conn.Write([]byte("bye\n"))
	closeConn <- err // want `\[audit: the buffer holds a value from every run and this run sends only this one: it blocks only once a run of \(\*chattyServer\)\.complain that sends more took its slot\]`
}
