//go:build special

package tagged

// Hub fans out to clients.
type Hub struct{ clients []chan string }

// Broadcast blocks on the first client that stops reading.
func (h *Hub) Broadcast(msg string) {
	for _, c := range h.clients {
		c <- msg
	}
}
