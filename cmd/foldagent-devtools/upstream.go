package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/devtools/registry"
)

// maxTools bounds the tools taken from one application.
const maxTools = 1000

// connectWithin bounds connecting to an application and listing its
// tools.
const connectWithin = 10 * time.Second

// upstream is a connection to one application's devtools.
type upstream struct {
	entry   registry.Entry
	session *mcp.ClientSession
	auth    *bearer
	broken  atomic.Bool // a call failed in transport: reconnect on the next
}

// bearer adds the application's token to every request and remembers
// whether the application refused it.
type bearer struct {
	token   string
	base    http.RoundTripper
	refused atomic.Bool
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := b.base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		b.refused.Store(true)
	}
	return resp, err
}

// RefusedError is an application answering 401 to the token its own
// registry entry gave.
type RefusedError struct{ Entry registry.Entry }

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the app refused the devtools token of its registry entry (HTTP 401 Unauthorized): %s", e.Entry)
}

// UnreachableError is an application whose devtools did not answer.
type UnreachableError struct {
	Entry registry.Entry
	Err   error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("the app's devtools did not answer: %s: %v", e.Entry, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// connect opens a session with e's devtools and lists its tools;
// onListChanged is called (on the SDK's goroutine) when the application
// says its tool set changed.
func connect(ctx context.Context, e registry.Entry, onListChanged func(*mcp.ClientSession)) (*upstream, []*mcp.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, connectWithin)
	defer cancel()
	auth := &bearer{token: e.Token, base: http.DefaultTransport}
	client := mcp.NewClient(&mcp.Implementation{Name: "foldagent-devtools", Version: version}, &mcp.ClientOptions{
		ToolListChangedHandler: func(_ context.Context, req *mcp.ToolListChangedRequest) { onListChanged(req.Session) },
	})
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   e.URL,
		HTTPClient: &http.Client{Transport: auth},
	}, nil)
	if err != nil {
		return nil, nil, failure(e, auth, err)
	}
	up := &upstream{entry: e, session: session, auth: auth}
	tools, err := up.list(ctx)
	if err != nil {
		session.Close()
		return nil, nil, err
	}
	return up, tools, nil
}

// list returns the application's tools, sorted by name.
func (u *upstream) list(ctx context.Context) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	for t, err := range u.session.Tools(ctx, nil) {
		if err != nil {
			return nil, failure(u.entry, u.auth, err)
		}
		if len(tools) == maxTools {
			return nil, fmt.Errorf("the app offers more than %d tools: %s", maxTools, u.entry)
		}
		tools = append(tools, t)
	}
	slices.SortFunc(tools, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	return tools, nil
}

// failure names why talking to e failed.
func failure(e registry.Entry, auth *bearer, err error) error {
	if auth.refused.Load() {
		return &RefusedError{Entry: e}
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		return err
	}
	return &UnreachableError{Entry: e, Err: err}
}

func sameEntry(a, b registry.Entry) bool {
	return a.PID == b.PID && a.URL == b.URL && a.Token == b.Token && a.Started.Equal(b.Started)
}
