package main

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answering is the stdio transport with a count of the calls read and
// not yet answered. Closing an MCP session drops the answers of the
// calls still in flight, so when the person quits the shop waits until
// every call has been answered (each held payment answers at once, as
// the person having left) and only then closes the session.
type answering struct {
	mcp.Transport

	mu      sync.Mutex
	open    int
	settled chan struct{} // closed, and replaced, each time open reaches zero
}

func newAnswering(t mcp.Transport) *answering {
	return &answering{Transport: t, settled: make(chan struct{})}
}

func (a *answering) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := a.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return answeringConn{c, a}, nil
}

// idle returns a channel closed once no call is waiting for its answer.
func (a *answering) idle() <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.open == 0 {
		done := make(chan struct{})
		close(done)
		return done
	}
	return a.settled
}

func (a *answering) add(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.open += n
	if a.open == 0 {
		close(a.settled)
		a.settled = make(chan struct{})
	}
}

type answeringConn struct {
	mcp.Connection
	a *answering
}

func (c answeringConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if r, ok := msg.(*jsonrpc.Request); ok && err == nil && r.IsCall() {
		c.a.add(1)
	}
	return msg, err
}

func (c answeringConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if _, ok := msg.(*jsonrpc.Response); ok {
		c.a.add(-1) // answered, or never will be: either way not waited for
	}
	return err
}
