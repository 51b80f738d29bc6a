// Package livefix has a bare send with a ctx in scope, for which baresend
// offers a select on ctx.Done() as the fix.
package livefix

import "context"

type client struct{ responses chan string }

func (c *client) reply(ctx context.Context, r string) error {
	c.responses <- r
	return nil
}
