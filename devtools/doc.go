// Package devtools lets a developer's coding agent debug a running
// foldagent application: what the Model is and was, which Messages changed
// it, who caused each one, and what the agents were refused or approved.
// It is opt-in: an application that does not import it links none of it.
//
// # The path of a Message
//
// AttachLoop attaches a recorder to a host/loop Program
// (loop.Program.Record). Every Message enters the Program by one door,
// and the Program keeps, beside each queued Message, which one: Dispatch
// or DispatchTracked with the caller's context, a Cmd's send with the
// version whose update returned the Cmd, or Options.PanicMsg. Right after
// update publishes the Model a Message made, on the update goroutine, the
// recorder keeps the version, the time (to the millisecond), the Message
// and the Model themselves (Models are immutable snapshots) and the
// Message's Provenance, read from that door:
//
//   - a context an agent runtime handed the host (agent.InvocationFrom):
//     an agent, named by its principal as the runtime's audit log projects
//     it (agent.AuditOptions.Principal), with the runtime's caller
//     (agent.WithCaller; its MCP session), the invocation id (the one the
//     agent audit records) and the transport; no wrapper is needed;
//   - a context marked by WithAgent (or the deprecated Agent wrapper),
//     whose identity wins;
//   - a context with only an agent runtime's caller: an agent known by that
//     caller (Options.NameAgent, if set, names it as the application names
//     it to the person: "agent 2");
//   - the developer's own dispatch (below): the developer;
//   - a dispatch whose context loop.WithInput marked: the person's input,
//     which the application's UI handed the Program;
//   - any other dispatch: the application's own code (not the person:
//     only real input is theirs);
//   - a Cmd's send: the application's own effect, naming its cause;
//   - a PanicMsg: the application's own effect.
//
// A dispatch context's marks are read once for a run of Messages
// dispatched with the same context (reading them costs several lookups
// through its chain, a third of applying a small Message); a record keeps
// a pointer to them as small codes, shared by the run, made a Provenance
// when a tool asks. The recorder takes no lock and allocates nothing per
// Message: host/loop tells it of a version just before publishing it, it
// fills the record at the place that version names in a ring of blocks,
// and the version the Program publishes is what tells a reading tool the
// record is there. With it attached, applying a small Message on
// host/loop costs about 1.1 times what it costs bare, and 1.3 times with
// a fresh context per Message (BenchmarkAppliedMessage and
// BenchmarkAppliedMessageFreshContext). Host adapters that record by
// themselves (package teadevtools, with New) feed Add, or AddDispatched
// with the dispatch context.
//
// Nothing is encoded while the application runs: JSON, the Model paths a
// Message changed (a JSON Pointer diff of the Model before and after) and
// redaction are worked out when a tool asks. The history keeps the last
// Options.History Messages (DefaultHistory, 1,000), counting those that
// left; keyframes (the Model every KeyframeEvery versions, at most
// Keyframes of them, and the Model the recorder started from) are where
// replay starts. Every record holds its Model, so keyframes are found
// among the records when a replay asks rather than copied aside.
//
// # Replay
//
// Replay rebuilds the Model of a past version by folding the recorded
// Messages from the nearest keyframe through the application's update in
// a sandbox (loop.Program.Sandbox: update's Cmds never run, nothing is
// published, the live Program is not touched) and compares every Model it
// makes with the recorded one. It says, as a *ReplayError, when that
// cannot be done: the window passed the keyframe, update panicked, or the
// replay differs from what was recorded (update read the time, did I/O,
// or changed a Model in place), naming the version and paths.
//
// # The MCP server
//
// Server serves the tools (ToolModel, ToolHistory, ToolCounts, ToolDiff,
// ToolReplay, ToolTypes, ToolAudit, ToolDispatch); Handler serves it over
// streamable HTTP behind a random bearer token (any other request is
// answered 401), and Listen serves Handler on 127.0.0.1's random port and
// hands the Listing (URL, token, process, directory) to Options.Publish,
// the place a per-user registry plugs in: Registry publishes into
// package devtools/registry's directory, and Close takes it out again. Values larger than
// MaxValueBytes are served as a Summary with their size. Errors are tool
// errors whose structured content names them ("error": a stable tag such
// as DevtoolsDispatchDisabled) beside the message.
//
// Redaction is on by default: members named like secrets (password,
// token, …) read "[redacted]" wherever they appear in a Model or a
// Message, and with Options.Contract so does every member the contract's
// context projection never shows an agent. Options.Redact adds places,
// Options.Reveal serves places anyway.
//
// Dispatch is off until the application turns it on (Options.Dispatch,
// EnableDispatch). A batch holds at most MaxBatch Messages, each named by
// its type (Message registers the application's types and their JSON
// Schema); every one is checked against its schema and decoded before
// any is sent, and one that fails refuses the whole batch with a
// *BatchError. What is sent is recorded as the developer's.
package devtools
