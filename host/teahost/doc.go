// Package teahost makes a Bubble Tea v2 program (charm.land/bubbletea/v2) a
// host an agent contract can bind to, without changing how the application
// is written.
//
// A [Host] wraps the application's tea.Model. Bubble Tea runs the wrapper,
// which calls the application's Init, Update and View as they are; after each
// Update the wrapper stores the model it returned as the current snapshot and
// tells listeners. That gives the four methods the agent seam needs:
//
//   - [Host.Model] returns the latest snapshot from an atomic pointer, typed
//     as the application's model, without waiting for the event loop.
//   - [Host.Dispatch] queues a Message for the running program. A small pump
//     goroutine hands queued Messages to tea.Program.Send in order. Dispatch
//     itself never blocks, because Send does until the event loop takes the
//     Message, and a listener running on that loop would wait for itself.
//   - [Host.Subscribe] calls a listener after every Update, and
//     [Host.Observe] calls one with each Message of the agent's Message type,
//     both once the model that Update returned is what Model returns.
//
// Run the program with [Host.Run] instead of tea.NewProgram(...).Run(); it
// takes the same options. Messages of the agent's type arrive in Update
// exactly like the application's own, so the person at the keyboard and the
// agent change the same model through the same code, and the screen shows
// what the agent did the moment its Message is applied.
//
// # The one obligation: models are values
//
// Model hands out the model itself, not a copy, and an agent runtime keeps it
// while it checks availability, authorization and builds a Message from it.
// That is only sound if a model never changes after Update has returned it:
// Update must return a new model instead of changing the one it was given.
// A value receiver with fresh slices and maps, or a pointer model that copies
// before changing (c := *m; c.n++; return &c, nil), both meet it. The common
// Bubble Tea idiom of a pointer receiver that assigns through m does not: an
// agent holding the previous snapshot would see it change under it.
//
// The Host checks what it cheaply can. By default, for pointer models, it
// copies the struct the previous model points to before Update and compares
// it afterwards: a difference means the previous snapshot was changed in
// place. With [Options.DeepCheck] it fingerprints everything reachable from
// the previous model instead, which also catches a value model that writes
// into a slice or map it shares with its predecessor; that costs time in
// proportion to the model and is meant for tests. A violation is reported as
// a [Violation] to [Options.OnViolation] (or logged once per kind and Message
// type), never by failing the Update. An Update that returns a model of
// another type is reported too, and Model then keeps the last model of the
// right type. Mutation from outside Update (a Cmd goroutine writing into the
// model) is not detected.
//
// # The person's approvals
//
// With [Options.Approvals] the Host draws the requests an agent runtime
// holds for the person's approval (agent.ApprovalAsked) over the
// application's view, in the bottom rows under a rule the application's
// content is clipped above, and answers them with the person's y and n
// once the card has settled (see host/approvals): the application's
// Update and View are unchanged. While a card waits the view reports, in
// the Program Status Protocol (OSC 7501, View.ProgramStatus), that the
// program is blocked on permission, and the report is cleared when no card
// is left.
//
// # Failures
//
// A panic in the application's Update or in a listener is recovered and
// reported as a [PanicError] to [Options.OnPanic] (or logged): the Message is
// dropped, the model stays as it was, and the program keeps running, so one
// bad Message from an agent cannot take the person's terminal down. Panics
// in View, Init and Cmds are left to Bubble Tea, which restores the terminal
// and makes Run return an error wrapping tea.ErrProgramPanic.
package teahost
