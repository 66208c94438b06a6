// Package webmcp publishes a bound agent runtime as WebMCP tools: the
// browser-native tools an agent running inside the page calls, through
// document.modelContext. The Go application runs in the page (GOOS=js
// GOARCH=wasm), and the agent operates the same live application the
// person is using.
//
// The package is an adapter and nothing more. It declares no capability,
// adds no authority and automates no DOM: each capability the contract
// already exposes, and the current Model offers, becomes one tool with the
// capability's name, its authored description, its input schema and the
// annotations it declares (readOnlyHint, consequentialHint; the
// registration's exposedTo comes from Options.ExposedTo), and
// calling the tool runs the runtime's one checked dispatch path
// (available, decode, authorize, dispatch, completion) with transport
// "webmcp". A tool call never fails as a call: a refusal comes back as a
// tool error carrying the refusal's agent-facing message, a defect as a
// generic failure that names only the capability (its detail goes to
// Options.OnError), and a dispatch as the agent.Summarize text; beside the
// text, structuredContent carries agent.ReplyTo's data (the result with
// the Message that completed the work, or what to correct in a refused
// input).
//
// # What the page saw
//
// The caller is the page: each Registration is one caller of the runtime
// (two pages, or two bindings of one runtime, are two). Each pass that
// reconciles the tool list reads it through the runtime's Offered with
// that caller, so the list the browser holds is the page's look at the
// Model's version it was read at, and each tool call's result is the
// page's look too. A result carries that version in its _meta, under
// "foldagent/version" (MetaVersion), and in structuredContent as
// "version". A capability that watches shared state (agent.Watch) refuses
// a call built on state the page was not shown: a tool error, tag
// AgentStaleViewError, whose structuredContent names the watches that
// moved and the current version; nothing is dispatched, and once the page
// has looked again (its next pass, which follows every Model change unless
// WithoutFollowingModel) the call may be sent again. WebMCP gives a tool
// call no metadata, so a call cannot cite a version. A call naming
// something that does not exist is a tool error tagged AgentNotFoundError,
// the input path in its structuredContent.
//
// # The person decides
//
// A capability may need the person's approval (agent.Approval). Its tool
// says so with consequentialHint, WebMCP having no annotation of its own
// for an approval. A call of it is held, not run: the execution waits
// while the application asks the person, and the page, which is the
// application, renders the request from its Model (agent.ApprovalAsked).
// Approved, the call runs the checked path and answers as usual.
// Declined, it is a tool error tagged AgentDeclinedError, the person's
// reason in structuredContent, never in the text; not answered by the
// deadline (agent.BindOptions.ApprovalTimeout), a tool error tagged
// AgentApprovalTimeoutError, the request withdrawn from the page. A call
// the browser cancels withdraws its request too. Nothing runs in any of
// the three.
//
// Availability depends on the Model, so the tool set follows it. Register
// reconciles after every Model change: a capability that leaves is
// unregistered by aborting its own registration, and one that arrives is
// registered. Reconciliation is serialized through a single worker, so
// overlapping Model changes never register a capability twice; a tool is
// recorded as live only once the browser has accepted it, so a refused
// registration is retried on the next pass; and after Unregister nothing
// is registered again, a registration still in flight being aborted as
// soon as the browser accepts it. Being off the list is not the only
// guard: a call to a capability the Model no longer offers is refused by
// the runtime.
//
// WebMCP also derives tools from annotated HTML forms. FormTool draws a
// capability as such a form, writing toolname, tooldescription and
// toolparamdescription from the same descriptor the imperative tool uses,
// so the two cannot disagree. Given the forms, Register answers their
// agent-invoked submissions as tool calls (fields read as text, then the
// same checked path) ahead of the application's own submit handler, and in
// a browser that has declarative tools it does not register those
// capabilities a second time.
//
// The package has two layers. The core (Register, the reconciliation, the
// call mapping, FormTool) is platform-neutral and talks to the browser
// only through the ModelContext and FormContext interfaces, so it builds
// and is tested anywhere with a stand-in. The browser layer, built only
// for js/wasm, adapts document.modelContext (or the older
// navigator.modelContext) to those interfaces with syscall/js:
// PageModelContext returns it, and returns nil outside a browser.
package webmcp
