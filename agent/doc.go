// Package agent lets an AI agent use an Elm-architecture application
// through the Messages it already has.
//
// An application declares once, in Go, a contract: what an agent may see
// and what it may do. What it may see is a projection of the Model (the
// context) and named read-only projections (resources). What it may do is
// an opt-in set of Message types, each exposed as a capability with a
// description, a typed input, an optional Available predicate over the
// Model, an optional Authorize hook and, optionally, a completion contract
// saying which later fact finishes the work. A capability is a Message, so
// an agent can do nothing the application cannot, and update stays the
// single source of truth.
//
//	contract := agent.Make(agent.Definition[Model, User]{
//		Context: agent.Project(func(m Model) View { return view(m) }),
//		Capabilities: []agent.Capability[Model, User]{
//			agent.Expose(capability[CreateTodo]{Description: "Create a todo."}),
//		},
//	})
//
// Declarations name the application's Model and principal types, which Go
// cannot infer from a struct literal. Write them once, with this one alias
// pattern (each alias only if the application uses it):
//
//	type (
//		capability[M any] = agent.Variant[M, Model, User]     // the Message is the input
//		mapped[In, M any] = agent.Mapped[In, M, Model, User]  // an input mapped to a Message
//		call              = agent.Call[Model, User]           // what Authorize and ToMessage receive
//	)
//
// Everything else is inferred: the completion constructors (CompleteOn,
// On, When) from the functions they are given, and Bind from the contract
// and the host. A capability that takes no input from the agent uses
// NoInput; a contract whose hooks read no principal uses NoPrincipal.
//
// The contract is data: Manifest and Markdown render it without reading a
// Model, and it is bound to a live application with Bind, through the Host
// seam (read the current Model, dispatch a Message) and the optional
// Subscriber and Observer seams. The host/loop and host/teahost packages
// are ready hosts.
//
// Every invocation, in-process (Dispatch, DispatchMessage) or from a
// protocol adapter (Runtime.DispatchUnknown), runs the same checked path
// in the same order (Runtime.run, whose steps are numbered as here):
//
//  1. Resolve the capability; refuse a context already done.
//  2. Read one Model snapshot, which every later step judges. A caller
//     whose last result named a version the host has not published yet
//     reads that version (CatchUp). Available; then freshness: a call
//     built from a view that moved is refused as stale (StaleViewError,
//     naming the watches that moved since the caller's look, the version
//     it last saw: Invocation.SeenVersion, or what the runtime recorded
//     it was shown). A call the person approved is judged against what
//     the person was shown instead.
//  3. Decode the wire input against the advertised JSON Schema, then
//     check that what it names exists (Exists: NotFoundError).
//  4. Resolve the principal once; Authorize (AuthorizationError for who
//     may, StateError for a world not in the state the call needs);
//     refuse a context that ended meanwhile. If the capability needs the
//     person's approval, hold the call (below) and, once approved, run
//     the whole path again on the Model of that moment.
//  5. Construct the Message from the same snapshot and hand it to the
//     host (NotDeliveredError when the host refused it).
//  6. With a completion contract, wait for the fact that finishes it.
//
// A refusal at any step before the fifth sends nothing, and Available
// runs before Authorize so an unavailable capability never reveals
// whether the caller would have been allowed. A result stamps the version
// its Message produced and becomes the caller's look, but only at what it
// showed: a later call is judged by the watches that result covered. A
// call that cites a version it was shown whole (Invocation.SeenWhole, as
// journey/bind's fires do) is judged against that version's Model, even
// when its last result is at the same version.
//
// What is offered is followed as well as checked: an adapter that lists
// the available capabilities re-lists them after Model changes through an
// OfferTracker (Runtime.TrackOffer, part of Served), which re-checks a
// capability only when a watch its availability declares it reads
// (AvailableReads) moved, so a change costs what can have changed, not one
// check per capability; hooks that declare nothing are called once per
// change however many capabilities share them. A hand-written runtime
// answers TrackSet over its AvailableSet.
//
// Dispatching a Message and finishing the work are not always the same
// event. A capability may declare a completion contract: CompleteOn names
// the Messages that finish it (matched to this invocation with On, whose
// correlate function is typed against the capability's input and the
// Message it names, typically comparing the invocation id ToMessage
// carried into the Message), and When finishes it when a condition over
// the Model holds. A contract written against another capability's input
// does not compile. Dispatch registers its
// interest before it hands the Message to the host, so a fact produced
// synchronously is not missed, and waits under a deadline (30 s unless the
// contract says otherwise) that runs from the host's Dispatch. A timeout
// or a cancellation while waiting undoes nothing: the Message reached
// update.
//
// Every decision can be recorded in an AuditLog (a bounded ring buffer
// with sinks for log/slog and JSON Lines files), refusals included. It
// keeps the principal only through the application's projection, the
// input only when asked, and never the Model. With a Tracer, each
// invocation runs in a span named Agent.dispatch; package agentotel
// adapts OpenTelemetry, which the core does not link. Neither costs
// anything when not configured.
//
// A capability may need the person's approval (Approval): a call that
// needs it is held, the application is told (ApprovalAsked) and shows the
// request, and the person's answer is the application's own Message,
// which no agent can send. An approval names the card the person answered
// (ApprovalRequest.Approve fills ApprovalAnswer.Shown with the request's
// Digest): one that names another card, or none, is refused and approves
// nothing (BindOptions.OnAnswerRefused, the audit log), and the request
// stays pending; declining needs no fingerprint. Request ids are minted by
// the runtime, unique in the process whatever the invocation ids. A held
// call ends, and its card is withdrawn, when its caller gives up, when
// nobody answers in time (ApprovalTimeoutError), and when the host stops
// (Finite): the person left (PersonLeftError).
//
// Refusals are typed errors, each with a stable protocol Tag, a message
// written for the calling agent and a JSON encoding an adapter can send
// across a protocol boundary: does not exist (UnknownCapabilityError,
// NotFoundError, ResourceError), not now (UnavailableError), you saw an
// old state (StaleViewError), not allowed (AuthorizationError), the world
// is not in that state (StateError), bad input (InvalidInputError), the
// person's answer (DeclinedError, ApprovalTimeoutError, PersonLeftError),
// and the call's own fate (CancelledError, NotDeliveredError,
// CompletionTimeoutError, RetryLaterError at a bound,
// AuditUnavailableError when a required audit cannot record). A held
// call answered later is told as held (TagHeld) by the adapters that
// outlive a client's patience. A panic or error in application
// code is a DefectError, whose message reveals nothing but the capability.
// ReplyTo is the one mapping from what dispatch returned to what an agent
// is told, shared by every adapter: an authored sentence, and beside it
// the values the agent acts on as data (the Message that completed the
// work; for a refused input, each offending path with a ProblemCode and
// the schema to meet), whose schema ReplySchema gives. A dispatched call's
// Result also says what it changed of the context (Result.Changed, a
// Change): the changed paths and their new values, from the version it was
// checked on to the one it answers at, bounded by MaxChangeBytes, so an
// agent needs no read to learn a call's effect. Describe gives a
// bound contract as data (capabilities, resources, context schema) for an
// adapter to serve.
package agent
