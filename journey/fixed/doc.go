// Package fixed serves a journey session to a model as a fixed set of
// tools ("Mode B"): one tool per journey (or one taking the journey id),
// then whats_here, why, do_action and did_it_work. The tool array is
// computed once and its bytes never change for the life of the port, so a
// prompt cache stays warm and any plain MCP host can drive it; what
// changes from turn to turn rides the results.
//
// A Port reaches its session only through package journey's exported
// API. Every sentence it serves is a library constant; runtime values
// (state, inputs, labels, produced data) ride in data fields only.
// journeymcp serves a Port over MCP.
//
// The tool array is built once (tools.go, toolSet) and never changes.
// Each answer kind is a typed struct (settle.go, whats_here.go,
// journey_tool.go, do_action.go, fire_answer.go) whose fields are in wire
// order, built by a pure function of one read of the session; resultOf
// (result.go) turns it into the ordered CallResult a call returns, whose
// encoding is the struct's own.
//
// # A do_action call, file by file
//
// Of the port's own files, a do_action call goes through these, in this
// order, and comes back to none it left: port.go (CallJSON, Call and call
// route it; the arguments are read once, fireArgs), do_action.go (the
// action resolved among those served here, its declaration read once, the
// confirmation gate, the fire), fire_answer.go (what the session
// answered, as the answer's part: fired, paused or refused), answer.go
// (the position read, the answer built and closed, the defect guard),
// once.go (what was said before is dropped). Two things are called along
// the way and returned from, as a library is: the answer's type,
// CallResult (result.go), read and written as a map would be, and package
// journey's API (the served ids, the one served row the gate needs, the
// graph, Session.Fire, whose checks and record read top to bottom in
// journey/fire_checks.go, and the position). scripts/trace-do-action measures the path (go run
// ./scripts/trace-do-action -only journey/fixed/ -lib
// journey/fixed/result.go: five stays in five files, no return).
//
// # One question, asked once
//
// A high-effect action (journey.Action.Confirm) pauses with needs-confirm:
// the model gets the person's yes in the chat and calls again with
// confirm: true. An action the application asks the person to approve on
// their own screen (journey.Action.PersonApproves, which journey/bind sets
// from the capability's agent.Variant.Approval) does not: the app's
// question is the confirmation, so the call fires at once and is held for
// the person there. The model learns it before it calls: the journey
// tool's description says what personApproves means and what to tell the
// person, and the ready row carries personApproves. While the person
// decides, the step's result, the journey, the brief, the facts and
// did_it_work all say it waits for the person, and nothing else; a
// request withdrawn before they answered is said as withdrawn, its reason
// code as data. Only an approval asked on every call is served as
// personApproves: one whose When selects calls may not ask for this one.
//
// # Said once
//
// A port serves one conversation, and what it said it does not say again
// (once.go, where a type of its own, told, keeps what was said): each
// explanatory sentence (a *Means field, the ready steps' howToAct) is given with the first answer that needs it; the facts
// header in full once, then its short form; a ready step's input schema
// once, then expects: "as-before"; a later step still waiting as the last
// journey answer gave it is counted (laterStepsUnchanged), not listed; a
// brief word for word the last one is briefUnchanged; a journey answer
// gives frame and standing only when they differ from the last answer
// about that journey (a new round's always); a row's does (a step's, an
// action's, a journey's) is given once, then left out (doesSaidMeans
// says so once). Steps done by a
// fire are counted (stepsDone). Fold compares with what the model was
// last given, not with the answer it re-reads. Options.Repeat serves
// every answer whole, for a model that does not keep the conversation.
package fixed
