package mcpagent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The direct path serves an ordinary request of the sessionless revision
// without the SDK's Stateless mode, which connects a temporary session
// per request (a jsonrpc2 connection, its goroutines, a stream) and tears
// it down after. Instead each identity's runtime holds one long-lived SDK
// session over an in-memory connection (directConn), and every request
// is handed to it as one JSON-RPC call and answered with the response the
// session writes back. The SDK still decodes, checks and dispatches the
// call exactly as on its own path (the per-request _meta included), so
// results are the same bytes; what is saved is the session, not any
// check.
//
// Only plain calls take it. Whatever may need more than one message back
// or has a refusal of its own on the SDK's path goes there instead,
// unchanged: subscriptions/listen (a stream), a call asking for progress
// (notifications on the request's stream), a batch, a notification, a
// method the path does not know, missing or mismatched Mcp-Method and
// Mcp-Name headers or _meta revision, and a request whose Content-Type or
// Accept the SDK would refuse.
//
// The go-sdk v1.8.0 has no public way to hand a request to a long-lived
// session of its streamable handler: StreamableServerTransport serves one
// session per transport, and in Stateless mode the handler builds one per
// request (StreamableHTTPHandler.serveStateless). A custom mcp.Transport
// is the public seam left, and the one used here.

// directMethods are the methods the direct path serves; the rest go to
// the SDK's path.
var directMethods = map[string]bool{
	"tools/list": true, "tools/call": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"prompts/list": true, "prompts/get": true,
	"completion/complete": true, "server/discover": true,
}

// directRequest is what the direct path reads of a request's params.
type directRequest struct {
	Name string `json:"name"`
	URI  string `json:"uri"`
	Meta struct {
		Version  *string         `json:"io.modelcontextprotocol/protocolVersion"`
		Progress json.RawMessage `json:"progressToken"`
	} `json:"_meta"`
}

// direct reports whether a request of the sessionless revision may take
// the direct path: a plain call that the SDK's path would serve without
// a refusal and answer with one message.
func direct(r *http.Request, msg envelope) bool {
	if !msg.object || msg.Method == nil || decodeID(msg.id()) == nil || !directMethods[*msg.Method] {
		return false
	}
	method := *msg.Method
	if r.Header.Get("Mcp-Method") != method || len(r.Header.Values("Last-Event-ID")) > 0 {
		return false
	}
	if ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || ct != "application/json" {
		return false
	}
	if !acceptsBoth(r.Header.Values("Accept")) {
		return false
	}
	var p directRequest
	if len(msg.Params) == 0 || json.Unmarshal(msg.Params, &p) != nil {
		return false
	}
	if p.Meta.Version == nil || *p.Meta.Version != r.Header.Get("MCP-Protocol-Version") || len(p.Meta.Progress) > 0 {
		return false
	}
	switch method {
	case "tools/call", "prompts/get":
		return p.Name != "" && r.Header.Get("Mcp-Name") == p.Name
	case "resources/read":
		return p.URI != "" && r.Header.Get("Mcp-Name") == p.URI
	}
	return true
}

// acceptsBoth reports whether an Accept header names both JSON and
// server-sent events (or all types), as the SDK requires of a POST.
func acceptsBoth(values []string) bool {
	var jsonOK, streamOK bool
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			switch mt {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// directConn is the in-memory connection between the direct path and an
// identity's long-lived SDK session. Each request gets a number of its
// own as its JSON-RPC id inside the session (clients reuse ids freely);
// the answer goes back with the client's id.
type directConn struct {
	in     chan jsonrpc.Message
	done   chan struct{}
	closed sync.Once
	next   atomic.Int64

	mu      sync.Mutex
	waiting map[int64]chan *jsonrpc.Response
}

func newDirectConn() *directConn {
	return &directConn{in: make(chan jsonrpc.Message), done: make(chan struct{}), waiting: make(map[int64]chan *jsonrpc.Response)}
}

// Connect implements mcp.Transport: the connection is itself.
func (c *directConn) Connect(context.Context) (mcp.Connection, error) { return c, nil }

// Read implements mcp.Connection.
func (c *directConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-c.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write implements mcp.Connection. A response goes to the request
// waiting for it; one whose request gave up is dropped. Notifications are
// dropped: a sessionless client hears of changes on its
// subscriptions/listen stream, which the SDK's path serves, and a call
// that asks for progress takes that path too.
func (c *directConn) Write(_ context.Context, m jsonrpc.Message) error {
	resp, ok := m.(*jsonrpc.Response)
	if !ok {
		return nil
	}
	n, ok := resp.ID.Raw().(int64)
	if !ok {
		return nil
	}
	c.mu.Lock()
	ch := c.waiting[n]
	delete(c.waiting, n)
	c.mu.Unlock()
	if ch != nil {
		ch <- resp // buffered: never blocks
	}
	return nil
}

// Close implements mcp.Connection; requests still waiting are answered
// as refused by a closed endpoint.
func (c *directConn) Close() error {
	c.closed.Do(func() { close(c.done) })
	return nil
}

// SessionID implements mcp.Connection: the session has none.
func (c *directConn) SessionID() string { return "" }

var errDirectClosed = errors.New("mcpagent: the identity's session is closed")

// call hands req to the session and waits for its response. When ctx
// ends first (the client closed the request), the invocation is
// cancelled, as the SDK's path does with PropagateRequestCancellation.
func (c *directConn) call(ctx context.Context, req *jsonrpc.Request) (*jsonrpc.Response, error) {
	n := c.next.Add(1)
	req.ID, _ = jsonrpc.MakeID(float64(n))
	ch := make(chan *jsonrpc.Response, 1)
	c.mu.Lock()
	c.waiting[n] = ch
	c.mu.Unlock()
	select {
	case c.in <- req:
	case <-c.done:
		c.forget(n)
		return nil, errDirectClosed
	case <-ctx.Done():
		c.forget(n)
		return nil, ctx.Err()
	}
	select {
	case resp := <-ch:
		return resp, nil
	case <-c.done:
		c.forget(n)
		return nil, errDirectClosed
	case <-ctx.Done():
		c.forget(n)
		c.cancel(n)
		return nil, ctx.Err()
	}
}

func (c *directConn) forget(n int64) {
	c.mu.Lock()
	delete(c.waiting, n)
	c.mu.Unlock()
}

// cancel tells the session that call n was given up, which cancels its
// handler's context.
func (c *directConn) cancel(n int64) {
	params, _ := json.Marshal(map[string]any{"requestId": n, "reason": "the client closed the request"})
	select {
	case c.in <- &jsonrpc.Request{Method: "notifications/cancelled", Params: params}:
	case <-c.done:
	}
}

// openDirect connects the long-lived session of p's Server that the
// direct path serves p's requests through. Its context names p, as the
// SDK's path names it in each request's context, so calls are attributed
// to the identity.
func openDirect(p *principalRuntime) (*directConn, error) {
	c := newDirectConn()
	ctx := context.WithValue(context.Background(), principalKey{}, p)
	if _, err := p.server.mcp.Connect(ctx, c, &mcp.ServerSessionOptions{State: &mcp.ServerSessionState{}}); err != nil {
		return nil, err
	}
	return c, nil
}

// serveDirect serves msg on p's long-lived session and writes its
// response as JSON. The caller checked direct(r, msg).
func serveDirect(g *guard, r *http.Request, p *principalRuntime, msg envelope) {
	id, err := jsonrpc.MakeID(decodeID(msg.id()))
	if err != nil {
		http.Error(g, "Bad Request: invalid request id", http.StatusBadRequest)
		return
	}
	req := &jsonrpc.Request{Method: *msg.Method, Params: msg.Params, Extra: &mcp.RequestExtra{
		TokenInfo: auth.TokenInfoFromContext(r.Context()),
		Header:    r.Header,
	}}
	resp, err := p.direct.call(r.Context(), req)
	switch {
	case errors.Is(err, errDirectClosed):
		http.Error(g, "Service Unavailable: the MCP endpoint is closed", http.StatusServiceUnavailable)
		return
	case err != nil:
		return // the client is gone
	}
	resp.ID = id
	data, err := jsonrpc.EncodeMessage(resp)
	if err != nil {
		writeRPCError(g, http.StatusInternalServerError, msg.id(), codeInternalError,
			"The server could not encode its answer to this request.", nil)
		return
	}
	g.Header().Set("Cache-Control", "no-cache, no-transform")
	g.Header().Set("Content-Type", "application/json")
	g.WriteHeader(http.StatusOK)
	_, _ = g.Write(data)
}

// decodeID turns a raw JSON-RPC id (a string or a number, as
// envelope.id returns it) into the value jsonrpc.MakeID takes, as the
// SDK decodes it (a number as float64); nil when it is neither.
func decodeID(raw json.RawMessage) any {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return v
	}
	return nil
}
