// Package bind declares a journey graph over an agent contract, so that an
// Elm-architecture application written once is served both ways: as the
// contract's dynamic tools (mcpagent) and as the fixed journey tools
// (journey/fixed, journeymcp).
//
// Nothing is declared twice. An action names the capability that performs
// it by its typed handle (*agent.Exposed), checked against the contract
// when the journey is built, so a renamed capability is followed and a
// capability the contract does not expose is refused naming both. The
// page the cursor is on and the state view guards read are projections of
// the Model, followed through the runtime's Subscribe seam: nothing is
// reported by hand. The Model changes reach the session one at a time, in
// order, and no lock of the binding is held meanwhile, so what the
// application runs as they do (the contract's availability hooks, the
// session's observers, what a control holds) may call back into the
// binding; a Model change it causes is followed after the one being
// applied.
//
// A fire runs its capability through the runtime's checked path
// (available, decode, authorize, audit, tracing) with the fire's context,
// so the caller's principal and the binding's transport are the
// contract's. The contract answers what it owns: an unavailable capability
// is served as a switched-off control (TOOL_DISABLED); a refusal brings
// the fire to rest refused, with what the agent would have been told as
// data. The session keeps what it owns: cursor, confirmation, the ask
// book, single-flight.
//
// How a fire comes to rest follows the capability's completion contract:
// completed is performed; failed is the application's rejection, its
// completing Message as the rejection's data; a completion timeout leaves
// the fire pending, to be asked about later (did_it_work). Without a
// completion contract, the Model change its Message causes settles it.
// Writes are observed by diffing the state projection after each Model
// change, and arrival when the page projection lands on the claimed page.
//
// What the person sees follows the Model the same way: a Container that
// is a Tab or a Modal says, through Shown, whether this Model shows it, and
// Def.LookingAt where the person looks; the binding reports both to the
// session after each change (SetVisible, ObserveFocus), so a control in a
// closed modal is served but not clickable without the application saying
// so by hand. What is the person's is declared on the action: HumanDecides
// and Policy pass through to the journey. An action Policy keeps for the
// person alone may name no capability: the person performs it in the
// application, through its own Messages, and the contract exposes nothing
// for it, so no agent on any route can perform it.
//
// Attribution is by version where the host allows it, else by order and
// by declaration. On a host that numbers its Models and tracks delivery
// (host/teahost, host/loop: agent.Runtime.TracksDelivery), the runtime
// tells the fire, before any listener sees it, the version its Message
// makes (agent.WhenDelivered): the Model change at that version is the
// fire's effect, and no change before it is (the application's own
// Messages queued first, an activity line, a spinner tick, the person's
// keys), so what a fire's answer says does not depend on how the host's
// goroutines were scheduled. A fire whose capability declares a
// completion is answered once the Model its completion was seen at has
// been followed, and the change that brings it to rest ends its work
// first, so its settled answer never says the application is still
// working on it. Otherwise, a Model change after a fire without a
// completion contract hands its Message over is taken as that fire's
// effect when it fits the fire: it moves a key the fire declares writing,
// or no key at all (the fire that declares writing what moved before one
// that declares no writes). A change that fits no waiting fire (the
// person editing something else while the agent's Message is in flight)
// is not credited to it, and the fire keeps waiting for its own. Such a
// change is left to the session, which credits it to a pending fire only
// when it covers that fire's declared writes (signature-match, or
// queue-order unless Options.Session.AttributionPolicy is strict), or
// records it as a stimulus; a change whose every key only the person's
// actions declare writing is reported as the person's own (their edit in
// the app), never credited to an agent's fire.
//
// One application may have several conversations at once (three MCP
// clients on one shop). Sessions binds the Def once per conversation: each
// journey Open returns has its own session (cursor, ledgers, ask book,
// facts) and names its conversation as the contract's caller
// (Options.Caller, agent.WithCaller), so the stale-view rule is per
// conversation too. Whose a Model change is is decided once for all of
// them, by the same rules (a fire's own version first, whichever
// conversation made it; a change of what a fire the app completes
// declares writing is that fire's while it runs): the fire it is the
// effect of is credited in its own session, and
// every other session records it as another agent's change (an agent
// stimulus, which the facts say is another conversation's), never as an
// attempt of its own. A single-flight or once-only action whose fire is in
// progress in another conversation is refused PENDING_ELSEWHERE
// (ReasonPendingElsewhere): PRIOR_FIRE_PENDING is only ever a session's
// own earlier fire.
package bind
