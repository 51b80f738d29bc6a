package replies

import (
	"context"
	"testing"
)

func TestReply(t *testing.T) {
	c := NewClient(context.Background())
	c.responses <- "from a test"
	Reply(c, "hello")
}
