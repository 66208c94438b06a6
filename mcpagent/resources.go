package mcpagent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

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

// collectResources builds the resource table: the context projection
// (when the contract has one and no declared resource is named context)
// first, then the declared resources in declaration order.
func (s *Server) collectResources(d agent.Description) {
	declared := d.Resources
	shadowed := slices.ContainsFunc(declared, func(r agent.ResourceDescriptor) bool { return r.Name == "context" })
	if d.Context != nil && !shadowed {
		s.resources[ContextURI] = &resource{
			uri: ContextURI, name: "context", description: contextDescription, order: -1, context: true,
		}
	}
	for i, r := range declared {
		s.resources[URI(r.Name)] = &resource{uri: URI(r.Name), name: r.Name, description: r.Description, order: i}
	}
}

func (s *Server) orderedResources() []*resource {
	out := make([]*resource, 0, len(s.resources))
	for _, r := range s.resources {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *resource) int { return a.order - b.order })
	return out
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
	r, ok := s.resources[uri]
	if !ok {
		return nil, resourceNotFound(uri)
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
	r, ok := s.resources[uri]
	if !ok {
		return resourceNotFound(uri)
	}
	if s.feed != nil {
		// An idle Server of a Feed does not listen to its runtime; one
		// with a subscription must, to re-read the value after changes.
		// It starts before the baseline is read, so no change between
		// the two goes unseen.
		s.startFollowing()
	}
	s.subMu.Lock()
	sub := s.subs[uri]
	s.subMu.Unlock()
	var baseline []byte
	if sub == nil {
		// The baseline, like every later value compared with it, is read
		// through the Server's own runtime: a projection sees only the
		// Model, so every session of a shared Server reads the same.
		data, _, err := r.read(ctx, s.rt)
		if err != nil {
			return s.readError(r, err)
		}
		baseline = data
	}
	s.subMu.Lock()
	defer s.subMu.Unlock()
	if s.subs[uri] == nil {
		s.subs[uri] = &subscription{sessions: make(map[*mcp.ServerSession]struct{}), last: baseline}
	}
	s.subs[uri].sessions[req.Session] = struct{}{}
	return nil
}

func (s *Server) unsubscribeResource(_ context.Context, req *mcp.UnsubscribeRequest) error {
	uri := req.Params.URI
	if _, ok := s.resources[uri]; !ok {
		return resourceNotFound(uri)
	}
	s.subMu.Lock()
	defer s.subMu.Unlock()
	if sub := s.subs[uri]; sub != nil {
		delete(sub.sessions, req.Session)
		if len(sub.sessions) == 0 {
			delete(s.subs, uri)
		}
	}
	return nil
}

// syncResources reads every subscribed resource and notifies its
// subscribers when the projected JSON changed. Resources nobody subscribed
// to are not read.
func (s *Server) syncResources() {
	s.subMu.Lock()
	if len(s.subs) == 0 {
		s.subMu.Unlock()
		return
	}
	uris := make([]string, 0, len(s.subs))
	for uri := range s.subs {
		uris = append(uris, uri)
	}
	s.subMu.Unlock()

	ctx := context.Background()
	for _, uri := range uris {
		data, _, err := s.resources[uri].read(ctx, s.rt)
		if err != nil {
			// Nothing is announced for a value that cannot be served.
			s.logReadFailure("reading "+uri, err)
			continue
		}
		s.subMu.Lock()
		sub := s.subs[uri]
		changed := sub != nil && !bytes.Equal(sub.last, data)
		if changed {
			sub.last = data
		}
		s.subMu.Unlock()
		if changed && !s.shell.Closed() {
			// The SDK tells a session it could not reach through its
			// logger (lost.go); an error here is counted the same way.
			s.lost.report(lostResourceUpdate, "notifications/resources/updated",
				s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}))
		}
	}
}

// forgetSession drops an ended session's subscriptions. A Server that
// ends with its session needs none of this; a shared one outlives its
// sessions.
func (s *Server) forgetSession(ss *mcp.ServerSession) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	for uri, sub := range s.subs {
		delete(sub.sessions, ss)
		if len(sub.sessions) == 0 {
			delete(s.subs, uri)
		}
	}
}
