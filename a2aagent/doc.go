// Package a2aagent serves a bound foldagent contract as an A2A 1.0 agent,
// on the official Go SDK (github.com/a2aproject/a2a-go/v2), so that another
// agent, rather than a model's tool loop, can use the application.
//
// A Handler is an http.Handler an application mounts where it likes. It
// serves the agent card at /.well-known/agent-card.json (relative to where
// it is mounted), the JSON-RPC binding (POST to the mount point itself) and
// the HTTP+JSON binding (POST /message:send, GET /tasks/{id}, ...). The A2A
// 0.3 JSON-RPC binding, for callers that have not moved to 1.0, is served by
// the package a2aagent/a2av03, over the same request handler.
//
// # Calling a capability
//
// A message names the capability and its input in a data part:
//
//	{"skill": "create_todo", "input": {"title": "milk"}}
//
// The first data part whose data is an object with a string "skill" is the
// call; "input" defaults to {}. A message without one is refused as invalid
// params, and no task is created. Each message starts a new task: a
// follow-up message to an existing task is refused.
//
// The task's id is the invocation id, and the invocation's transport is
// agent.A2A. The adapter adds no authority: every call goes through the
// runtime's checked path (DispatchUnknown), and what the calling agent is
// told comes from agent.ReplyTo, as on every other route. The task's status
// message carries the Reply's text in a text part and its data
// ({"_tag", "message", ...} for a refusal, the Result otherwise) in a data
// part. Task states:
//
//   - dispatched, or its completion contract met: TASK_STATE_COMPLETED;
//   - its completion contract reported failure: TASK_STATE_FAILED;
//   - its completion did not arrive in time: TASK_STATE_FAILED;
//   - cancelled (CancelTask) while the runtime waited: TASK_STATE_CANCELED,
//     and the message says the Message reached update and nothing was
//     undone; cancelled while it waited for the person's approval (below),
//     the message says nothing happened, and the request is withdrawn from
//     the person's screen;
//   - unknown skill, invalid input, unavailable in the current state (the
//     message and data carry the contract's authored reason), not
//     authorized, naming something that does not exist
//     (AgentNotFoundError, the input path in the data), built on state
//     that moved since the caller read it (AgentStaleViewError, below):
//     TASK_STATE_REJECTED, with the refusal's message and data; nothing
//     was dispatched;
//   - a failure in the application (a defect): TASK_STATE_FAILED, with a
//     generic message naming only the skill; the cause goes to the Logger;
//   - declined by the person in the app (a capability that needs the
//     person's approval, agent.Approval): TASK_STATE_REJECTED, tag
//     AgentDeclinedError, the person's reason in the data; nothing was
//     dispatched;
//   - not answered by the person in time: TASK_STATE_FAILED, tag
//     AgentApprovalTimeoutError; the request was withdrawn from the
//     person's screen and nothing was dispatched;
//   - the person gone (the application stopped while the call waited):
//     TASK_STATE_FAILED at once, tag AgentPersonLeftError; nothing was
//     dispatched.
//
// While a call waits for the person's approval the task stays
// TASK_STATE_WORKING, and a status update says so: its text says it waits
// for the person to approve in the app, its data part is {"approval",
// "capability", "summary", "deadline"} (the request's id, the
// capability's authored summary of what the person is asked, and when the
// request is withdrawn unanswered). GetTask, SendStreamingMessage and
// SubscribeToTask all show it; approved, the task goes on as any other.
//
// A task is TASK_STATE_WORKING from its first event until it settles, and
// it settles once: a terminal state is never overwritten. A capability with
// a completion contract is therefore a real long-running task: GetTask
// finds it WORKING while the runtime waits, SendStreamingMessage and
// SubscribeToTask stream its status to the terminal state, a send with
// returnImmediately answers at once, and CancelTask ends the wait.
//
// # What the caller saw
//
// A message may read the application's state instead of calling a skill:
// a data part {"read": "context"} reads the contract's context projection,
// {"read": "resource", "name": <resource>} one of its resources. A read is
// answered by a message, not a task: its data part is {"version": N,
// "value": ...}.
//
// Every read and every task's result is the caller's look: the agent's
// message (a read's answer, a task's status message) carries the version
// of the Model it was taken at in its metadata, under "foldagent/version"
// (MetaVersion). The caller is the A2A identity (the whole verified
// principal). A capability that watches shared state (agent.Watch)
// rejects a call whose caller last looked at a state where what it
// watches differed: TASK_STATE_REJECTED, tag AgentStaleViewError, the data
// naming the watches that moved and the current version (also in the
// metadata), nothing dispatched; reading again and sending the call again
// is safe. A message calling a skill may cite the version it planned
// against in its own metadata, under "foldagent/seenVersion"
// (MetaSeenVersion); a citation wins over the caller's last look, and one
// that is not a positive whole number is refused as invalid params, with
// no task created.
//
// # The agent card
//
// The card is built from the contract (agent.Description): one skill per
// capability in the contract, whatever the current state (dispatch still
// refuses what is unavailable), with the tag "conditional" for a
// capability that is offered only in some states and "authorized" for one
// that checks its caller (declares Authorize); one that only checks that
// what its input names exists is not tagged "authorized"; "needs-approval"
// marks one whose calls may wait for the person's approval (always, or
// when the contract's predicate says so). A 1.0 AgentSkill has no field for an input
// schema, so the card declares the extension InputSchemaExtension in
// capabilities.extensions, whose params are
//
//	{"skills": {"<skill id>": <the capability's input JSON Schema>, ...}}
//
// so a 1.0 client can read each skill's schema from the card. The card
// declares one security scheme, "bearer" (HTTP bearer authentication), and
// requires it: that is exactly what the Handler enforces.
//
// # Identity and isolation
//
// Identity comes only from the transport: HTTPOptions.Verifier checks the
// bearer token of every request but the card's, and NewRuntime binds one
// runtime per principal identity: the user, scopes and claims the verifier
// returned, together, never the user name alone. Task ids are minted by the
// SDK, never by the client: version 7 UUIDs, whose 74 random bits (from
// crypto/rand) make them unguessable, though their leading bits tell when
// the task began. An id is not a capability anyway: a task is visible only
// to the principal that created it: another principal's
// GetTask, CancelTask, SubscribeToTask or follow-up message is answered
// exactly as a task that does not exist, and ListTasks lists only the
// caller's own tasks. Like mcpagent, the Handler checks the Origin
// allowlist, refuses a non-loopback Host on a loopback listener (DNS
// rebinding), bounds request bodies, and keeps a bounded task store: when
// it is full, the oldest tasks that have ended are evicted first, and a new
// task is refused while every stored task is still running.
//
// # Bounds
//
// What one principal holds is bounded by the rule every foldagent surface
// follows (internal/bound): MaxTasksPerPrincipal bounds its running tasks,
// so that one principal at its bound is refused alone and the store's room
// stays with the others; MaxRuntimes bounds the runtimes kept, releasing
// the least recently used one whose principal has no task running. A
// message beyond either is refused before anything is dispatched, with a
// server error whose details name the bound ("bound", "limit",
// "perIdentity") and say when to try again ("retryAfterSeconds").
package a2aagent
