// Package nativeagent serves a foldagent contract as Agent Native actions:
// the HTTP action convention of the action-first application framework
// @agent-native/core, so that an Agent Native application (its assistant,
// its MCP and A2A surfaces, its CLI), or anything else that speaks that
// convention, can use a Go application's capabilities.
//
// Every exposed capability is an action:
//
//	POST <prefix>/actions/<capability>      the raw input as the JSON body
//	→ {"ok": true, "tag": "CreateTodo", "completion": "completed", "message": "Completed: TodoCreated", "data": {...}}
//
// The body is the capability's input itself, with no envelope, and the
// answer is the action result, bare: ok, tag (the dispatched Message's
// type, only when one was dispatched), refusal (the protocol tag of the
// error a refused call ended with, only then; error repeats its message,
// whatever the status), the completion status when the capability declares a completion
// contract, the authored message (agent.ReplyTo's text, the same every
// adapter sends), and, beside it, the data: the dispatch result, with the
// completing Message, or the refusal's encoding. Status codes follow the
// framework: 400 for input the capability's schema refuses, 401 without a
// valid bearer token (or the application's own session check), 403 for a
// refusal by the capability's Authorize hook, 404 for an unknown action or
// for input that names something that does not exist
// (AgentNotFoundError, the input path in the data), 405 for any method but
// POST, 409 for a call built on state that moved since its caller read it
// (AgentStaleViewError, below), 413 for a body over the bound, 429 with
// Retry-After beyond a bound (AgentRetryLaterError, the bound named in the
// data: calls waiting for the person, runtimes kept), 202 for a call held
// past the client's patience (AgentHeldError, below), 503 when the
// application did not accept the Message and a retry is safe, 403 and 504
// for a call the person declined or did not answer (below), and 500 with
// a generic body for a defect. Other refusals (unavailable, with the
// contract's authored reason in the message and the data; cancelled; a
// completion that did not arrive in time) and a completion that reported
// failure are 200 with ok false, as the framework returns what an
// action's run returned.
//
// GET <prefix>/actions is the catalogue the framework registers from:
// each action's tool (description and parameters, the input's JSON Schema
// as sent on the wire), http method, requiresAuth, readOnly, and
// needsApproval (below).
// requiresAuth says the action needs an authenticated caller, which every
// action here does; whether a capability also checks the principal
// (Authorize) is the contract's, and one that only checks that what its
// input names exists does not.
//
// # The person decides
//
// A capability may need the person's approval (agent.Approval). The
// catalogue marks it "needsApproval": true, the framework's own name for
// its approval gate, whether every call needs it or only those the
// contract's predicate picks. Such a call is not run: the request waits,
// held open, while the application asks the person, and answers when the
// person does. Approved, it runs the checked path and answers as any
// other action. Declined: 403, refusal AgentDeclinedError, the person's reason
// in the data (never in the message); 403 because, as with Authorize's
// refusal, the one with the say over this call refused it, and the caller
// must not simply send it again (the tag tells the two apart). Not answered
// by the deadline (agent.BindOptions.ApprovalTimeout): 504, refusal
// AgentApprovalTimeoutError; the person, upstream of the call, did not
// answer in time, nothing was done, the request was withdrawn from the
// person's screen, and calling again asks again. The person gone (the
// application stopped while the call waited): 503, refusal
// AgentPersonLeftError, answered at once; nothing was done. A caller that gives up
// (closes the request) before Patience withdraws the request too.
//
// A call still waiting for the person (or for a completion) when the
// client's patience would run out (Options.Patience, 50 seconds by
// default, under the 60 seconds common clients wait) is held, never
// answered with a timeout: 202 Accepted, refusal AgentHeldError, the data
// saying what it waits for ("person" or "application"), nothingDone
// (true while the person has not answered), the request's id and a status
// URL, <prefix>/calls/<id>, also in the Location header. The call goes on;
// the person's later answer runs it once. Its caller learns the outcome
// by sending the same request again (which joins the held call instead of
// starting another, answering when it ends or held again at Patience) or
// by GET of the status URL, which waits the same way (the outcome, as the
// action would have answered it, or 202 held again at Patience). Once the
// request sent again has been answered with the outcome, the same request
// is a new call; the status URL gives the outcome until KeepOutcome after
// the call ended, so a client that left before an answer reached it loses
// nothing. Another identity's call is not found. Held calls are
// bounded per identity and in all (MaxHeldPerIdentity, MaxHeld); a call
// with no room to be held keeps its request waiting. An Agent Native
// application that registers the catalogue as its own actions gates such
// an action in its own agent loop too (its approval_required): that asks
// its own user whether to send the call at all; the person using this
// application is asked all the same, and only their answer runs it.
//
// GET <prefix>/context and GET <prefix>/resources/<name> read the
// contract's context projection and resources, as {"version": N,
// "value": ...}.
//
// # What the caller saw
//
// Every read (the catalogue, the context, a resource) and every action
// result is the caller's look: the version of the Model it was taken at
// rides in the response header Foldagent-Version, and, in a body of ours,
// in its "version" member. The caller is the Agent Native identity (the
// principal the token or session names). A capability that watches shared
// state (agent.Watch) refuses a call whose caller last looked at a state
// where what it watches differed: 409, refusal AgentStaleViewError, the data
// naming the watches that moved and the current version, nothing
// dispatched. An action may cite the version it planned against in the
// request header Foldagent-Seen-Version (a version a Foldagent-Version
// gave); a citation wins over the last look, and one that is not a
// positive whole number is refused 400 before anything runs.
//
// Handler.Stats reports the runtimes and held calls kept, and counts the
// answers to calls that ran but could not be written (the client had
// gone), each also logged at Warn: nothing is lost silently.
//
// The handler adds no authority: identity comes only from the transport,
// each principal gets its own runtime (Options.NewRuntime, at most
// MaxRuntimes kept by internal/bound's rule: one in use is never
// dropped), and every call
// goes through the runtime's checked path (available, decode, authorize,
// audit, tracing) with transport agent-native. Input is decoded once, by
// the runtime.
//
// # Reaching a foldagent application from Agent Native
//
// An Agent Native application has three ways to use a foldagent one:
//
//   - These actions, over HTTP: the application calls
//     POST <base>/actions/<capability> with the bearer token, or registers
//     the catalogue (GET <base>/actions) as actions of its own. Each call is
//     one action result; nothing streams.
//   - MCP: the framework's MCP client takes an entry in mcp.config.json,
//     {"todo": {"type": "http", "url": "http://127.0.0.1:PORT/mcp",
//     "headers": {"Authorization": "Bearer TOKEN"}}}, and the tools appear
//     as mcp__todo__<capability>, following availability (list_changed),
//     with resources and progress.
//   - A2A 0.3: the framework's A2A client sends message/send to the
//     a2aagent package's 0.3 compatibility endpoint (a2av03.NewHandler);
//     each call is a task with the A2A states (completed, failed,
//     rejected, canceled), the skill and input in a data part. The client
//     looks for an application's A2A endpoint at <base>/_agent-native/a2a
//     first, so mounting the 0.3 endpoint there (as examples/todo does)
//     lets it be pointed at the base URL alone. (It refuses loopback and
//     private addresses unless they are listed in its
//     AGENT_NATIVE_A2A_ALLOWED_ORIGINS.)
//
// What each gives: the actions are the simplest (one POST, one answer,
// the framework's own conventions, no session); MCP follows availability
// and offers resources and progress; A2A turns each call into a task that
// can be polled, streamed and cancelled while a completion contract waits.
package nativeagent
