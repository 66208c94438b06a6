package mcpagent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/foldagent/foldagent/agent"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ContextURI is the URI of the context projection, unless the contract
// declares a resource named "context", which then takes the URI.
const ContextURI = "app://context"

// contextDescription describes the context projection in resources/list.
const contextDescription = "The application's current state, as its contract projects it for agents."

// URI returns the URI a declared resource is served at: app://<name>.
func URI(name string) string { return "app://" + name }

// resourceBook is a Server's resources: the table built once from the
// contract, read without a lock afterwards, and the subscriptions to
// them by URI, under the book's own lock.
type resourceBook struct {
	byURI map[string]*resource
	mu    sync.Mutex
	subs  map[string]*subscription
}

// newResourceBook builds the resource table: the context projection (when
// the contract has one and no declared resource is named context) first,
// then the declared resources in declaration order.
func newResourceBook(d agent.Description) *resourceBook {
	b := &resourceBook{byURI: make(map[string]*resource), subs: make(map[string]*subscription)}
	declared := d.Resources
	shadowed := slices.ContainsFunc(declared, func(r agent.ResourceDescriptor) bool { return r.Name == "context" })
	if d.Context != nil && !shadowed {
		b.byURI[ContextURI] = &resource{
			uri: ContextURI, name: "context", description: contextDescription, order: -1, context: true,
		}
	}
	for i, r := range declared {
		b.byURI[URI(r.Name)] = &resource{uri: URI(r.Name), name: r.Name, description: r.Description, order: i}
	}
	return b
}

// ordered returns the resources in the order resources/list gives them.
func (b *resourceBook) ordered() []*resource {
	out := make([]*resource, 0, len(b.byURI))
	for _, r := range b.byURI {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *resource) int { return a.order - b.order })
	return out
}

// find returns the resource at uri, or the not-found error.
func (b *resourceBook) find(uri string) (*resource, error) {
	if r, ok := b.byURI[uri]; ok {
		return r, nil
	}
	return nil, resourceNotFound(uri)
}

// subscribed reports whether uri has a subscription (and so a baseline).
func (b *resourceBook) subscribed(uri string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.subs[uri] != nil
}

// add subscribes ss to uri. baseline is the value to compare later reads
// with, used only when uri had no subscription.
func (b *resourceBook) add(uri string, ss *mcp.ServerSession, baseline []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.subs[uri] == nil {
		b.subs[uri] = &subscription{sessions: make(map[*mcp.ServerSession]struct{}), last: baseline}
	}
	b.subs[uri].sessions[ss] = struct{}{}
}

// remove unsubscribes ss from uri.
func (b *resourceBook) remove(uri string, ss *mcp.ServerSession) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.dropLocked(uri, ss)
}

// forget drops an ended session's subscriptions. A Server that ends with
// its session needs none of this; a shared one outlives its sessions.
func (b *resourceBook) forget(ss *mcp.ServerSession) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for uri := range b.subs {
		b.dropLocked(uri, ss)
	}
}

func (b *resourceBook) dropLocked(uri string, ss *mcp.ServerSession) {
	if sub := b.subs[uri]; sub != nil {
		delete(sub.sessions, ss)
		if len(sub.sessions) == 0 {
			delete(b.subs, uri)
		}
	}
}

// watched returns the URIs with subscriptions.
func (b *resourceBook) watched() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	uris := make([]string, 0, len(b.subs))
	for uri := range b.subs {
		uris = append(uris, uri)
	}
	return uris
}

// update records data as uri's latest value, and reports whether it
// differs from the one before (and uri is still subscribed).
func (b *resourceBook) update(uri string, data []byte) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	sub := b.subs[uri]
	if sub == nil || bytes.Equal(sub.last, data) {
		return false
	}
	sub.last = data
	return true
}

// resourceNotFound is the error for a URI the contract does not declare.
func resourceNotFound(uri string) error {
	data, _ := json.Marshal(struct {
		URI string `json:"uri"`
	}{uri})
	return &jsonrpc.Error{Code: CodeResourceNotFound, Message: "Resource not found", Data: data}
}

// readResource serves resources/read: the projection's JSON, read from
// the current Model.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	r, err := s.resources.find(uri)
	if err != nil {
		return nil, err
	}
	rt, err := s.runtime(ctx)
	if err != nil {
		return nil, err
	}
	data, version, err := r.read(s.withCaller(ctx, req.Session), rt)
	if err != nil {
		return nil, s.readError(r, err)
	}
	if data == nil {
		return nil, resourceNotFound(uri)
	}
	return &mcp.ReadResourceResult{
		Meta:      versionMeta(version),
		Contents:  []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(data)}},
		Cacheable: mcp.Cacheable{CacheScope: "private"}, // the Model's current value, read for this principal
	}, nil
}

func (s *Server) readError(r *resource, err error) error {
	var missing *agent.ResourceError
	if errors.As(err, &missing) {
		return resourceNotFound(r.uri)
	}
	var cancelled *agent.CancelledError
	if errors.As(err, &cancelled) {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "The read was cancelled."}
	}
	// A defect, or a projection whose value broke its own schema
	// (*agent.ProjectionError): the value is not served and the client
	// learns only that the read failed; the cause goes to the log.
	s.logReadFailure("reading "+r.uri, err)
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("Reading the resource %q failed unexpectedly.", r.name)}
}

// logReadFailure logs a failed read with its cause: an error's own text is
// written for the agent, so where a projection broke its schema, or what
// a projection's defect was, is only in the cause.
func (s *Server) logReadFailure(what string, err error) {
	var projection *agent.ProjectionError
	if errors.As(err, &projection) {
		s.log.Error("mcpagent: a projection's value does not match its advertised schema; it was not served",
			"while", what, "tag", projection.Tag(), "projection", projection.Projection, "cause", errors.Unwrap(projection))
		return
	}
	if cause := errors.Unwrap(err); cause != nil {
		s.log.Error("mcpagent: application code failed", "while", what, "error", err, "cause", cause)
		return
	}
	s.logDefect(what, err)
}

// subscribe records a resources/subscribe. The value read now is the
// baseline: the first notification goes out when the projection differs
// from it.
func (s *Server) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	r, err := s.resources.find(uri)
	if err != nil {
		return err
	}
	if s.feed != nil {
		// An idle Server of a Feed does not listen to its runtime; one
		// with a subscription must, to re-read the value after changes.
		// It starts before the baseline is read, so no change between
		// the two goes unseen.
		s.startFollowing()
	}
	var baseline []byte
	if !s.resources.subscribed(uri) {
		// The baseline, like every later value compared with it, is read
		// through the Server's own runtime: a projection sees only the
		// Model, so every session of a shared Server reads the same.
		data, _, err := r.read(ctx, s.rt)
		if err != nil {
			return s.readError(r, err)
		}
		baseline = data
	}
	s.resources.add(uri, req.Session, baseline)
	return nil
}

func (s *Server) unsubscribeResource(_ context.Context, req *mcp.UnsubscribeRequest) error {
	uri := req.Params.URI
	if _, err := s.resources.find(uri); err != nil {
		return err
	}
	s.resources.remove(uri, req.Session)
	return nil
}

// syncResources reads every subscribed resource and notifies its
// subscribers when the projected JSON changed. Resources nobody subscribed
// to are not read.
func (s *Server) syncResources() {
	uris := s.resources.watched()
	if len(uris) == 0 {
		return
	}
	ctx := context.Background()
	for _, uri := range uris {
		data, _, err := s.resources.byURI[uri].read(ctx, s.rt)
		if err != nil {
			// Nothing is announced for a value that cannot be served.
			s.logReadFailure("reading "+uri, err)
			continue
		}
		if s.resources.update(uri, data) && !s.shell.Closed() {
			// The SDK tells a session it could not reach through its
			// logger (lost.go); an error here is counted the same way.
			s.lost.report(lostResourceUpdate, "notifications/resources/updated",
				s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}))
		}
	}
}
