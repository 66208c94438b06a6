// Package journey is a navigation graph of an application and a session
// that tracks one conversation's way through it: where the cursor is, what
// can be done there, what was attempted, and how each attempt came to rest.
// It is the substrate a fixed tool set for a model ("journeys as fixed
// tools") is served from; it does not depend on any model or transport.
//
// # The graph
//
// A Graph is declared once, as data (GraphDef), and compiled by NewGraph,
// which refuses every authoring mistake with a *GraphError naming it: an
// invalid or duplicate name, a missing Does, an empty guard, an unknown
// operator, a goTo naming an unknown page, an ambiguous journey step, a
// name that cannot become a tool name. Pages hold actions, optionally in
// containers; a Repeats container is a template whose actions exist once
// per runtime instance. Root actions are offered on several pages. Every
// action carries Does, the one authored sentence both a planner and a
// model read; its other declarations (guard, enabledWhen, writes, reads,
// goTo, confirm, input contract, verify) are what the session judges it
// by. An action's goTo is its claim, and the claim is the page edge:
// pages declare no edges of their own. Journeys are named, described,
// ordered lists of steps over the actions, with an optional precondition.
//
// Declaration order is part of the contract. Go maps are unordered, so
// every list in the declaration is a slice, and the order survives into
// everything served: action rows, journey lists, route tie-breaks. The
// compiled graph is immutable and indexes, per page, what is offered
// there and which journeys start there, so serving the cursor costs the
// same on a graph of sixty pages or six hundred.
//
// # The session
//
// A Session (Graph.NewSession) holds the cursor, moved by Sync from the
// application's router; the state view, fed by UpdateState; the
// transition ledger of fires and reports; the gap ledger of refused
// fires; the ask book; the settlement latches; the journey frames; and
// the work ledger. Its own methods are the calls that change something;
// every read is on its View (Session.View: Here, Available, Plan,
// Standing, Facts, GroundTruth, Transitions, Pending, State, Values,
// Version …; each takes the lock once), and an answer that reads several
// things reads them from one state with View.Look (a whats_here answer:
// rows, standings, brief, facts, route) or View.FrameLook (a journey
// answer: plan, frames, standing); the ask book is reached through
// Session.Asks (Confirm, Approve, Decline, Revoke, ReportDecline,
// HeldForPerson, PersonAnswered). The history is bounded by Options.Retention: what the
// protocol still needs (fires not at rest, each action's latest fire, open
// asks and frames, open work) is never evicted, what is evicted is counted
// (View.Evicted, and the facts block), and an evicted fire id is answered
// TRANSITION_EVICTED. A turn's reads are indexed so that they cost what
// they show, not the length of the conversation. The host registers
// handlers per page when it mounts (RegisterActions; each written over Go
// types with Typed) and unregisters them
// when it unmounts; the returned Handle switches controls off
// (SetEnabled) or labels them busy (SetBusy).
//
// Fire runs a fixed, ordered list of checks, each a small function named
// by the reason code it refuses with: UNKNOWN_ACTION, then STALE_CURSOR,
// NOT_ON_NODE, PRINCIPAL_NOT_ALLOWED, NODE_NOT_VISIBLE,
// BLOCKED_BY_OVERLAY, INSTANCE_REQUIRED/INSTANCE_UNKNOWN, STILL_MOUNTING,
// GUARD_FAILED, PAYLOAD_INVALID, TOOL_DISABLED, NOT_MATERIALIZED,
// PRIOR_FIRE_PENDING, DUPLICATE_EXECUTION, then confirmation or, under
// RequireHumanApproval, the APPROVAL_* gate (see Fire). The first check
// that stops a fire decides its answer. A refusal writes a gap row and
// changes nothing else; a fire that passes every check is recorded
// (version + 1), settled at once when nothing is left to wait for, and
// its handler started. Capability comes before authority:
// nobody is asked to approve what cannot be done. A guard key absent from
// the state is unevaluable, never false: the action is still served and
// carries guardUnevaluated.
//
// # The person
//
// Some moves are the person's, and a model must not make them: an action
// declared HumanDecides (their decision; disclosure only) or one whose
// PrincipalPolicy leaves the agent out (human-only, enforced). Both are
// served awaiting the person (awaitingHuman; a journey whose only move is
// theirs stands with-the-human), never as a ready step. What the person
// sees matters too: a control on a hidden tab, in a closed modal or under
// a blocking modal (Container.Tab, Container.Modal; Show, SetVisible) is
// served but not clickable, and ObserveFocus reports where they look
// (Position.LookingAt). ReportState lets the app say whose change a state
// report is (ReportOptions.Principal): the person's change is never
// credited to a pending agent fire, and the facts block lists it as theirs.
//
// A state report is attributed by a ladder of rungs, the first that
// applies winning: the fire it names (named-by-report); the fire whose
// handler is running, when reported with that handler's context
// (handler-window, ReportStateContext); the principal it gives
// (reported-principal, a stimulus row); the one pending fire whose
// declared writes it covers (signature-match), or the oldest of several
// (queue-order, which Options.AttributionPolicy strict skips); with
// nothing pending, an inferred fire of the one action whose declared
// writes are exactly its keys (inferred-fire: principal unknown, inferred,
// listed in the facts as inferred, not observed); otherwise a stimulus row
// of an unknown actor. State never moves without a row saying who.
//
// A once-only action whose fire came to rest is refused
// DUPLICATE_EXECUTION, unless the person acted after that: the fire then
// proceeds and its record carries repeated. Served rows and plans keep
// naming the earlier fire either way, so a repeat is never offered.
//
// A recorded fire comes to rest once, and the first settlement wins: a
// receipt with three separate axes, effectStatus (did anyone perform it),
// effectVerified (were the declared writes observed in the state report)
// and verifyHeld (did the app's own postcondition hold). When the record
// moves later, say a server rejects what the app had reported, the
// receipt stays and the answer carries outcomeNow beside it. A navigating
// action's arrival is claimed when it commits and observed when a later
// Sync lands on the claimed page; there is no third value.
//
// # How a session is built
//
// A Session is a coordinator over a fold: the state its calls are
// applied to, and the rules that apply them. Each call that changes
// something (a fire, a state report, a sync, a registration, a reject,
// an observation, a journey committed or left, work begun or done, a tab
// or modal shown, an ask answered) takes the session's lock, applies
// that one event to the fold, and releases the lock before any observer
// is told. Work that comes back from outside a call (a handler
// returning, a VerifyFunc's verdict, Work.Done, a Handle's flips)
// re-enters the same way. Every method of the fold runs under the lock
// by construction, since only the coordinator reaches it; its read rules
// (served rows, plans, standings, the facts block, a settlement's
// answer) are kept apart from the write rules. The fold is made of
// parts, each a type that owns its state and rules: the ledgers
// (transitions, gaps, commits, retention, and the once-only rule), the
// ask book, the journey frames, the work book, visibility (tabs, modals,
// focus), the bindings each registration adds, what the Instances
// sources said, and the observers.
//
// No application code runs under the session's lock. A holds reader
// fills the rows Available and Here return after it is released; a
// VerifyFunc reads a copy of the state as the fire came to rest, its
// verdict applied under the lock again as the settlement it completes; a
// container's Instances source is read before a call that may need it
// (a fire, a journey commit or leave, the rows and plans), on a copy of
// the state, and read again if the state moved meanwhile. The parts hold
// no lock of their own, except the observers, whose registration and
// defects have theirs.
// Three paths are written as steps of their own: a fire (the checks
// above, then recording), a state report (read, attributed by the rungs
// below, then recorded as a stimulus or credited to a fire), and the
// facts block (picked attempts, then one section after another).
//
// # Text and data
//
// The session's only prose is the facts block (GroundTruth), and it is
// built from library sentences, graph ids, versions, counts and reason
// codes. State values, inputs, labels, instance keys, error texts and
// produced data ride only in data fields, so a value written to look
// like an instruction reaches a model as data, never as the app's voice.
// An id the graph does not declare renders as a constant.
//
// # Concurrency
//
// Every method is safe for concurrent use. Handlers run on their own
// goroutines after Fire returns. Observers (OnTransition, OnState, OnGap,
// OnAsk) are called after the session's lock is released; a panicking
// observer, handler or reader is recovered and recorded as a Defect, and
// the session carries on.
package journey
