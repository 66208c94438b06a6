package mcpagent

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/citation"
	"github.com/foldagent/foldagent/internal/mcpshell"
)

// This file ties what a client was shown to what it calls (see agent.Watch
// and agent.WithCaller). Every read the adapter serves (tools/list,
// resources/read of the context or a resource) and every tools/call result
// is the caller's look, and the version it was taken at rides in the
// result's _meta under MetaVersion. A tools/call may cite the version it
// planned against in its request's _meta under MetaSeenVersion; a cited
// version wins over the caller's last look.
//
// The caller is the MCP session: the Mcp-Session-Id on streamable HTTP,
// the one connection on stdio, and on the sessionless 2026-07-28 revision
// the identity (SessionKey) every request of that caller shares.

// _meta keys this adapter reads and writes.
const (
	// MetaVersion is the _meta key under which a tools/list, resources/read
	// or tools/call result carries the version of the Model it was taken
	// at (a JSON number), on a versioned host.
	MetaVersion = "foldagent/version"
	// MetaSeenVersion is the _meta key under which a tools/call request
	// may cite the version it planned against (a JSON number, one a
	// result's MetaVersion gave).
	MetaSeenVersion = "foldagent/seenVersion"
)

// connIDs numbers the connections of Servers whose sessions have no id
// (stdio, in-memory), so that two such sessions on one runtime are two
// callers.
var connIDs atomic.Uint64

// callerKeys names each id-less session of one Server while it is open.
type callerKeys struct {
	m sync.Map // *mcp.ServerSession -> string
}

// caller returns the key of the caller a request came from.
func (s *Server) caller(ctx context.Context, ss *mcp.ServerSession) string {
	if p, ok := ctx.Value(principalKey{}).(*principalRuntime); ok && p != nil {
		return "mcp:identity:" + p.key
	}
	if ss == nil {
		return ""
	}
	if id := ss.ID(); id != "" {
		return mcpshell.SessionCaller(id)
	}
	if k, ok := s.callers.m.Load(ss); ok {
		return k.(string)
	}
	k := "mcp:conn:" + strconv.FormatUint(connIDs.Add(1), 10)
	if prev, loaded := s.callers.m.LoadOrStore(ss, k); loaded {
		return prev.(string)
	}
	go func() {
		_ = ss.Wait()
		s.callers.m.Delete(ss)
	}()
	return k
}

// withCaller names the request's caller in ctx.
func (s *Server) withCaller(ctx context.Context, ss *mcp.ServerSession) context.Context {
	return agent.WithCaller(ctx, s.caller(ctx, ss))
}

// seenVersion reads the version a tools/call cites, if any. A citation
// that is not a positive whole number is the client's mistake, answered
// as invalid params.
func seenVersion(meta mcp.Meta) (uint64, error) {
	raw, ok := meta[MetaSeenVersion]
	if !ok || raw == nil {
		return 0, nil
	}
	v, ok := citation.Version(raw)
	if !ok {
		return 0, badCitation
	}
	return v, nil
}

var badCitation = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `_meta "` + MetaSeenVersion + `" must be a positive whole number: a version a result's _meta "` + MetaVersion + `" gave.`}

// versionMeta is the _meta of a result taken at version v; nil when v is 0.
func versionMeta(v uint64) mcp.Meta {
	if v == 0 {
		return nil
	}
	return mcp.Meta{MetaVersion: v}
}

// listLook records a tools/list as the caller's look and returns the
// version it was taken at (0 when the runtime is unversioned).
func (s *Server) listLook(ctx context.Context, ss *mcp.ServerSession) uint64 {
	rt, err := s.runtime(ctx)
	if err != nil {
		return 0
	}
	offer, err := rt.Offered(s.withCaller(ctx, ss))
	if err != nil && offer.Capabilities == nil {
		return 0
	}
	return offer.Version
}
