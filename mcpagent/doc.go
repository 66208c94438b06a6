// Package mcpagent serves a foldagent contract over the Model Context
// Protocol, so that desktop assistants, coding agents and IDEs can use an
// application through the Messages it already has. It is built on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk) and follows the
// 2025-11-25 revision of the specification; over HTTP it also serves the
// sessionless 2026-07-28 revision (SessionlessRevision) on the same
// endpoint.
//
// The adapter adds no authority of its own. A Server wraps one bound
// runtime (anything satisfying Runtime, which *agent.Runtime does) and
// every tools/call goes through Runtime.DispatchUnknown with transport
// "mcp" and the request's context, so availability, input validation,
// the principal and authorization are decided by the contract exactly as
// for an in-process call, and a client's notifications/cancelled cancels
// the invocation.
//
// Tools follow the Model. There is one tool per capability the current
// Model offers, with the name, description and input schema the contract
// derives, an output schema of what its results carry of their own, and
// readOnlyHint or destructiveHint when the capability declares it. The
// output schema leaves out the envelope every result repeats and carries
// itself (capability, tag, invocation, version, as agent.ReplySchema
// describes them): a capability with a completion contract is described
// by its completion, one alternative per Message it can end on with that
// Message's schema, beside the refusal (and a watching one by the watches
// that may have moved); any other is {"type":"object"}.
//
// With Options.ListAll every capability is listed whatever the Model: the
// list never changes and no tools/list_changed is sent, so a client lists
// once, and what the Model does not offer is refused when called, with
// the reason. Otherwise the Server listens to the runtime's Subscribe
// seam and, after each Model change, compares the available names with
// what it advertises (one availability check per capability); only when
// the set really changed does it add or remove the tools that differ,
// which makes the SDK send notifications/tools/list_changed. Nothing is
// sent after Close.
//
// Results speak the agent package's language. Success is the Summarize
// wording as text plus structuredContent {capability, tag, invocation,
// version?, changed?, completion?}, where completion carries the Message
// that finished the work (the created record, with its id) and changed
// what the call changed of the context; a failed completion sets isError.
// The structured content is repeated as a JSON text block, for clients
// that read only content (the 2025-11-25 revision asks it of a tool
// returning structured content), less what the request and the text
// already say: the capability, the tag, the invocation, and a refusal's
// message when it is the text. Every value a call returns is in both.
// A refusal the model can act on (unavailable, unauthorized, invalid input,
// completion timeout, cancelled) is a tool result with isError, the error's
// agent-facing message and its data (for invalid input: where, how, and the
// schema to meet), so the model can correct itself; a name the contract
// does not know is a JSON-RPC error -32602; a defect says only that the
// capability failed, and its cause goes to the Logger. While a call waits
// and the client sent a progress token, progress notifications keep the
// wait visible. A notification that cannot be sent (progress,
// resources/updated, a list change, the SDK's included) is counted in
// Server.NoticeHealth and logged at Warn, never dropped silently.
//
// A call that waits can outlast its client. A client that speaks tasks
// gets one: the 2026-07-28 tasks extension (TasksExtension) on the
// sessionless path, the task-augmented tools/call of 2025-11-25 on
// sessions and stdio; both written here, since the SDK has no tasks. Any
// other client of a call that may wait is answered at Options.Patience
// with a held answer (agent.TagHeld) and learns the outcome by calling
// the same again. Tasks and held calls belong to their identity, are
// bounded, and their outcomes are kept for Options.KeepOutcome.
//
// The context projection is the resource app://context and each declared
// resource is app://<name> (a declared resource named context takes that
// URI). resources/subscribe is supported: a subscribed resource is re-read
// after Model changes and notifications/resources/updated goes out when
// its JSON changed.
//
// Two transports are provided. ServeStdio serves one runtime to the client
// that launched the process, with nothing but protocol on standard output.
// Handler is a streamable HTTP endpoint for many clients: identity comes
// only from a bearer token checked by the application's verifier through
// the SDK's auth middleware, each session gets its own runtime bound to
// that principal, a session presented by any other identity (even the same
// user name with another role) is answered as unknown, browsers are held
// to an Origin allowlist, the SDK's DNS rebinding protection stays on,
// bodies are bounded in size and time, each identity's sessions are
// bounded, writes to a client that stops reading time out, and idle
// sessions expire, releasing their runtime's listeners.
//
// The same Handler serves clients of the sessionless revision, which send
// no initialize and no session id: each request is authenticated on its
// own and served by one runtime per identity (the SessionKey rule that
// owns sessions), list results are cacheable for HTTPOptions.ListTTL, and
// resources/updated reach a client on the subscriptions/listen stream it
// opens. Listen streams are bounded by the session bounds' numbers, in
// places of their own: MaxSessionsPerPrincipal per identity, MaxSessions
// in all; beyond either, 429 with Retry-After and the bound named.
//
// Which tool list a client gets depends on its revision. The 2026-07-28
// revision says a tools/list result may vary by the request's
// authorization but not per connection or as a side effect of other
// requests, so a sessionless client is listed every capability of the
// contract, whatever the Model, in the SDK's name order: the same bytes
// for every request. What the Model does not offer now is refused when
// called, with the reason ("not offered, because ..."), and a read of the
// context shows the state that decides it. A session-based client
// (2025-11-25 and older) is listed what the current Model offers, and
// told with tools/list_changed when that changes, as those revisions
// allow. Since nothing ties such a request
// to a process but its identity, an application can run as several
// replicas behind a proxy that routes by principal; docs/replicas.md shows
// how, with NGINX and Envoy, and what a client sees when a replica dies.
package mcpagent
