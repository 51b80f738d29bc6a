package routerfixed

import (
	"sync"
	"time"
)

// throttle is a token bucket shared by every client of the router: it admits
// rate requests per second on average and bursts of up to burst.
type throttle struct {
	rate, burst float64

	mu     sync.Mutex
	tokens float64   // guarded by mu
	last   time.Time // guarded by mu
}

func newThrottle(rate, burst float64) *throttle {
	return &throttle{rate: rate, burst: burst, tokens: burst, last: time.Now()}
}

// admit takes a token if one is left.
func (t *throttle) admit() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	t.tokens = min(t.burst, t.tokens+now.Sub(t.last).Seconds()*t.rate)
	t.last = now
	if t.tokens < 1 {
		return false
	}
	t.tokens--
	return true
}
