// Package wire is a broker connection shared by many readers: when it
// closes it calls back every reader registered on it, from its own
// goroutine.
package wire

import "net"

// Handler is what the connection calls back.
type Handler interface {
	ConnectionClosed(reason string)
}

type Conn struct {
	nc       net.Conn
	handlers []Handler
}

func Dial(nc net.Conn) *Conn {
	c := &Conn{nc: nc}
	go c.readLoop()
	return c
}

func (c *Conn) Register(h Handler) { c.handlers = append(c.handlers, h) }

func (c *Conn) readLoop() {
	buf := make([]byte, 4096)
	for {
		if _, err := c.nc.Read(buf); err != nil {
			for _, h := range c.handlers {
				h.ConnectionClosed(err.Error())
			}
			return
		}
	}
}
