// Package wirekit is a public connection library: readers register a
// Handler, and anyone holding one may call it, as the connection does
// when its link closes.
package wirekit

// Handler is what the connection calls back.
type Handler interface {
	LinkClosed(reason string)
}

type Conn struct {
	handlers []Handler
}

func (c *Conn) Register(h Handler) { c.handlers = append(c.handlers, h) }

// Close tells every handler the link is gone.
func (c *Conn) Close() {
	for _, h := range c.handlers {
		h.LinkClosed("closed")
	}
}
