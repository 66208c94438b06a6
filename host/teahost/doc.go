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
// # What agents read: copies taken on the event loop
//
// Bubble Tea components change their own memory in place: bubbles' list
// rewrites its items with RemoveItem, the textarea edits its rows, a huh
// form is a pointer its Update changes. So the Host does not hand out the
// model the program runs on. Right after each Update, on Bubble Tea's
// event loop and before the next Update can start, it takes a deep copy
// of the model Update returned and publishes that: [Host.Model],
// [Host.ModelAt], listeners and every agent read copies nothing writes to
// again, with no code in the application. Everything reachable through
// pointers, slices, maps and interfaces is copied, unexported fields
// included, keeping aliasing and cycles; strings, functions, channels,
// pointers to standard-library types (timers, mutexes) and pointers to
// values that hold a lock or an atomic (a store a Cmd writes under its own
// mutex: shared state, not the model's data) are shared. A model
// of plain values is copied by assignment. The cost is one copy per
// Update, in proportion to the model (BenchmarkSnapshot in
// examples/bubbles/apps measures it on bubbles' list). Reading a copy is
// safe; calling a method that writes (a View with a cache) on one from
// several goroutines is not, so projections read fields.
//
// [Options.ShareModel] publishes the model itself instead, for a model
// that meets the old obligation (Update returns a new model and never
// changes the one it was given). Then the Host checks what it cheaply
// can: for pointer models it copies the struct before Update and compares
// it afterwards; with [Options.DeepCheck] it copies everything reachable
// and compares. A violation is reported as a [Violation] naming the field
// path it found changed (".items[3]", "(*model).N") to
// [Options.OnViolation] (or logged once per kind and Message type), never
// by failing the Update. An Update that returns a model of another type is
// reported in either mode, and Model then keeps the last model of the
// right type. Mutation from outside Update (a Cmd goroutine writing into
// the model) is not detected.
//
// A violation also stands ([Host.Violated]): one changed in place for the
// rest of the run, a model of another type until an Update returns the
// Host's type again. While one stands the person sees it, in an inert line
// the Host draws at the bottom of the view, saying agents' view of the
// program may be wrong; and agents' calls are refused
// ([Host.DispatchTracked] returns a [ViolationError], which reports
// non-delivery, so an agent runtime tells the agent nothing happened).
// That is the zero value, failing fast as host/teaserve does at start-up;
// [Options.ServeDespiteViolation] keeps calls going, and the line says so.
//
// # Key presses as Messages
//
// A [Keys] Message carries key presses for a program whose only Messages
// are keys. The Host applies them in one turn of the event loop (no key of
// the person's lands between them) after a check on the live model, and
// listeners then observe a [KeysDone] or [KeysRefused] saying what
// happened. For an application that finishes what the presses began in a
// Cmd (bubbles' list filters in one), [Keys.AwaitSettled] holds the
// KeysDone back until the Cmds the presses returned have all come back
// and a condition holds of the model, asked then and after every later
// Update. Package keyact declares agent capabilities that send them.
//
// # The person's approvals
//
// With [Options.Approvals] the Host draws the requests an agent runtime
// holds for the person's approval (agent.ApprovalAsked) over the
// application's view, in the bottom rows under a rule the application's
// content is clipped above, and answers them with the person's y and n
// once the card has settled (see host/approvals): the application's
// Update and View are unchanged. A window too short for the whole card
// draws the rows that fit and takes no y until the card is shown whole.
// Only the person's keys (from the terminal) count: a tea.KeyPressMsg
// queued by Dispatch, an agent's Message, goes to the application and
// answers no card, so an agent offered key presses cannot approve its own
// request. While a card waits the view reports, in
// the Program Status Protocol (OSC 7501, View.ProgramStatus), that the
// program is blocked on permission, and the report is cleared when no card
// is left.
//
// # Agent text in the application's view: shown, never obeyed
//
// An application's view draws its data, and some of it an agent wrote (a
// list's title, an item's name). Before Bubble Tea's renderer gets the
// view, the Host keeps of its content only text, line breaks, tabs and
// SGR styling: cursor moves, screen and line erasures, OSC sequences
// (window title, clipboard 52, hyperlinks 8), DCS, APC, SOS and PM
// strings, ESC c, mode toggles such as bracketed paste, C1 controls (as
// bytes or as UTF-8 runes) and every other control character are dropped
// whole, so the person sees the text the sequences were wrapped in and
// the terminal is told none of them. The renderer alone would pass on
// hyperlinks, string sequences and U+009B (a one-rune CSI to a terminal
// that honours C1). Line breaks stay: they are the application's layout,
// so text that draws a fake approval card stays in the application's
// rows, above the rule of the Host's own region. An application's own
// hyperlinks are shown as their text. Bidi controls are not touched.
//
// # Bubble Tea v1 programs
//
// The Host runs Bubble Tea v2 only. Package teav1 hosts a v1 model
// unchanged, translating its Messages and Cmds at the edge, and says what
// moving a v1 program to v2 takes.
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
