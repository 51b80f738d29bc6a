package baresend

import "sync"

// An event system whose loop hands each event to every subscription. A
// subscriber that stops unsubscribes on its way out, and while its
// request to be removed waits for the loop, it keeps taking events: the
// loop, blocked on that subscriber's channel, is answered and then takes
// the request. The pass cannot see that the loop never sends to a
// subscription it removed, so the sends are audited, naming the drain.

type event struct{ n int }

type subscription struct {
	id     int
	events chan event
	done   chan struct{}
}

type eventSystem struct {
	install   chan *subscription
	uninstall chan *subscription
	feed      chan event
	quit      chan struct{}
}

type eventSub struct {
	es   *eventSystem
	s    *subscription
	once sync.Once
}

func (es *eventSystem) eventLoop() {
	subs := make(map[int]*subscription)
	for {
		select {
		case ev := <-es.feed:
			es.broadcast(subs, ev)
		case s := <-es.install:
			subs[s.id] = s
		case s := <-es.uninstall:
			delete(subs, s.id)
			close(s.done)
		case <-es.quit:
			return
		}
	}
}

func (es *eventSystem) broadcast(subs map[int]*subscription, ev event) {
	for _, s := range subs {
		s.events <- ev // want `send on s\.events \(chan event, unbuffered\) can block forever: .*\[audit: its receiver the function literal in watchEvents, once it stops, keeps receiving until \(\*eventSystem\)\.eventLoop, which sends, takes its request on uninstall: a send blocks only if made after that\]$`
	}
}

func (es *eventSystem) subscribe(events chan event) *eventSub {
	s := &subscription{events: events, done: make(chan struct{})}
	es.install <- s // want `send on es\.install \(chan \*subscription\) can block forever: .*\[audit: its receiver \(\*eventSystem\)\.eventLoop can stop waiting, but may run again for the same channel\]$`
	return &eventSub{es: es, s: s}
}

// Unsubscribe keeps taking events until the loop takes the request, so
// that the loop, blocked on this subscription, is never left waiting.
func (sub *eventSub) Unsubscribe() {
	sub.once.Do(func() {
		for {
			select {
			case sub.es.uninstall <- sub.s:
				<-sub.s.done
				return
			case <-sub.s.events:
			}
		}
	})
}

func watchEvents(es *eventSystem, stop chan struct{}, handle func(event)) {
	events := make(chan event)
	sub := es.subscribe(events)
	go func() {
		defer sub.Unsubscribe()
		for {
			select {
			case ev := <-events:
				handle(ev)
			case <-stop:
				return
			}
		}
	}()
}

// A ticker hub whose subscribers give up on their drain once the hub is
// told to quit: a subscriber that leaves that way no longer takes ticks,
// and the hub, still sending a tick it read before the quit, blocks.

type tickSub struct {
	id    int
	ticks chan int
}

type tickHub struct {
	join  chan *tickSub
	leave chan *tickSub
	ticks chan int
	quit  chan struct{}
}

func (h *tickHub) run() {
	subs := make(map[int]*tickSub)
	for {
		select {
		case t := <-h.ticks:
			for _, s := range subs {
				s.ticks <- t // want `send on s\.ticks \(chan int, unbuffered\) can block forever: its receiver the function literal in watchTicks can stop receiving, .*one slow receiver stalls every later one$`
			}
		case s := <-h.join:
			subs[s.id] = s
		case s := <-h.leave:
			delete(subs, s.id)
		case <-h.quit:
			return
		}
	}
}

func (h *tickHub) unsubscribe(s *tickSub) {
	for {
		select {
		case h.leave <- s:
			return
		case <-s.ticks:
		case <-h.quit:
			return
		}
	}
}

func watchTicks(h *tickHub, stop chan struct{}) {
	ticks := make(chan int)
	s := &tickSub{ticks: ticks}
	h.join <- s // want `send on h\.join \(chan \*tickSub\) can block forever: .*\[audit: its receiver \(\*tickHub\)\.run can stop waiting, but may run again for the same channel\]$`
	go func() {
		defer h.unsubscribe(s)
		for {
			select {
			case <-ticks:
			case <-stop:
				return
			}
		}
	}()
}
