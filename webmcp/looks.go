package webmcp

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/foldagent/foldagent/agent"
)

// This file ties what a page was shown to what its tools do (see
// agent.Watch and agent.WithCaller). The caller is the page: each
// Registration is one caller, named when it is made. Each reconciliation
// reads the tool list through Offered with that caller, so the list the
// browser holds is the page's look; and each tool call's result is its
// look too. A result carries the version of the Model it was taken at in
// its _meta under MetaVersion (and, in structuredContent, as "version").
// WebMCP gives a tool call no channel for metadata, so a call cannot cite
// a version: it is judged against the page's last look.

// MetaVersion is the _meta key under which a tool result carries the
// version of the Model it was taken at (a JSON number), on a versioned
// host. It is the key mcpagent uses.
const MetaVersion = "foldagent/version"

// pageIDs numbers the Registrations of a process, so that two pages (or
// two bindings of one runtime) are two callers.
var pageIDs atomic.Uint64

func newPageKey() string { return "webmcp:page:" + strconv.FormatUint(pageIDs.Add(1), 10) }

// withCaller names the registration's page as the caller in ctx.
func (r *Registration) withCaller(ctx context.Context) context.Context {
	return agent.WithCaller(ctx, r.caller)
}

// available reads the capabilities the current Model offers, as the
// page's look.
func (r *Registration) available() ([]agent.Descriptor, error) {
	offer, err := r.agent.Offered(r.withCaller(context.Background()))
	return offer.Capabilities, err
}
