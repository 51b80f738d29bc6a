package runnerhub

import (
	"container/list"
	"time"
)

// deliverRefusalsLimit bounds how many recent delivers a router remembers.
const deliverRefusalsLimit = 4096

// refusalEntry is what a router remembers of a deliver it pushed.
type refusalEntry struct {
	id        string
	sessionID string
	seq       uint64
	sentAt    time.Time
}

// refusalLRU remembers the delivers a router recently pushed, so that a
// refusal the Runner sends back later can be logged with what was refused
// and counted, rather than dropped unseen. It keeps at most limit entries and
// forgets the oldest first; a refusal for a forgotten deliver is still
// counted, only without its details. Not safe for concurrent use: the router
// guards it with its mu.
type refusalLRU struct {
	limit   int
	order   *list.List // of refusalEntry, oldest at the front
	entries map[string]*list.Element
}

func newRefusalLRU(limit int) *refusalLRU {
	return &refusalLRU{limit: limit, order: list.New(), entries: make(map[string]*list.Element)}
}

// Add remembers e, forgetting the oldest entry if the record is full.
func (l *refusalLRU) Add(e refusalEntry) {
	if el, ok := l.entries[e.id]; ok {
		l.order.Remove(el)
	}
	l.entries[e.id] = l.order.PushBack(e)
	if l.order.Len() > l.limit {
		oldest := l.order.Front()
		l.order.Remove(oldest)
		delete(l.entries, oldest.Value.(refusalEntry).id)
	}
}

// Remove forgets the deliver id: it was acknowledged, or never reached the
// Runner, so no refusal can come for it.
func (l *refusalLRU) Remove(id string) {
	if el, ok := l.entries[id]; ok {
		l.order.Remove(el)
		delete(l.entries, id)
	}
}

// Take returns and forgets the deliver id.
func (l *refusalLRU) Take(id string) (refusalEntry, bool) {
	el, ok := l.entries[id]
	if !ok {
		return refusalEntry{}, false
	}
	l.order.Remove(el)
	delete(l.entries, id)
	return el.Value.(refusalEntry), true
}
