package baresend

import "context"

func sendInCaseBodyBad(ctx context.Context, c *client, r Response) {
	select {
	case <-ctx.Done():
		c.responses <- Response{Err: ctx.Err()} // want `send on c.responses .* can block forever: the package's other send on it gives up when ctx is done, as its receivers may be gone by then, and this send has no such case \[audit: the channel is reached through c, a value handed to sendInCaseBodyBad,`
	default:
	}
}

func sendWithDefaultOK(c *client, r Response) {
	select {
	case c.responses <- r: // ok: never blocks (silentdrop judges the default)
	default:
		c.responses = nil
	}
}

func allSendSelectBad(a, b chan<- Response, r Response) {
	select {
	case a <- r: // want `select with only send cases \(on a or b\) can block forever: no liveness case \(ctx\.Done\(\), a stop channel\) lets it give up.*\[audit: `
	case b <- r:
	}
}

func deadReceiveIsNotLivenessBad(c *client, r Response) {
	select {
	case c.responses <- r: // want `select with only send cases \(on c.responses\) can block forever.*\[audit: `
	case <-make(chan struct{}):
	}
}

func dataReceiveIsAWayOutOK(c *client, in <-chan Response) {
	for {
		select {
		case r := <-in: // the loop still reads: not wedged on the send
			_ = r
		case c.responses <- Response{}: // ok: another case can fire
		}
	}
}

func singleCaseSelectBad(c *client, r Response) {
	select {
	case c.responses <- r: // want `send on c.responses .* can block forever: the package's other send on it gives up when ctx is done, as its receivers may be gone by then, and this send has no such case \[audit: the channel is reached through c, a value handed to singleCaseSelectBad,`
	}
}
