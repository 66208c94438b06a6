// Package loop is a small Elm-architecture runtime for Go applications that
// have no UI framework of their own: a server keeping state in memory, a
// daemon, a test double, or the model half of a UI that renders elsewhere.
//
// An application is an [App]: Init gives the first Model, and Update turns a
// Model and a Message into the next Model plus an optional [Cmd], the effect
// to run next. A [Program] owns one App. It applies Messages one at a time,
// in the order they were queued, never two at once, so Update needs no
// locks and sees every Message exactly once. They are applied on the
// goroutine that calls [Program.Run], except that a
// [Program.DispatchTracked] caller that finds nothing queued and nothing
// being applied applies its own Message, as Run's goroutine would, rather
// than wake that goroutine and wait for it. Cmds run on their own goroutines and report back by sending more
// Messages, which join the same queue: saving a file, calling a server or
// waiting for a timer never holds up the next update. [Batch] runs several
// Cmds at once and [Sequence] one after another; [Emit] queues follow-up
// Messages.
//
// The Program is also a host for an agent contract. Its four methods are
// exactly the seam the contract binds to, so a Program is passed to the
// binding as it is:
//
//   - [Program.Model] returns the current Model from where update's
//     goroutine publishes it (a slab of recent versions, pinned with an
//     atomic add for the read and let go with another); it never waits
//     for update, so an agent can read a consistent snapshot while the
//     application is busy. Models are shared, not copied: Update
//     must build a new value rather than change the one it was given.
//   - [Program.Dispatch] queues a Message and returns; it never waits for
//     update, so it is safe from any goroutine, from a listener and from
//     update itself.
//   - [Program.Subscribe] calls a listener after every applied Message, and
//     [Program.Observe] calls one with the Message itself. Both run after the
//     Model the Message produced is the one Model returns, so a listener that
//     reads Model sees the effect of the Message it was told about. A
//     listener registered before a Dispatch sees that Message and everything
//     after it, including the Messages its Cmds send, which is what lets an
//     agent runtime subscribe first and dispatch second without missing a
//     result.
//
// Nothing the application supplies can crash the process through the
// Program: a panic in Update, in a Cmd or in a listener is recovered and
// reported as a [PanicError], to [Options.OnPanic], as a Message built by
// [Options.PanicMsg], or to the log. A panicking Update leaves the Model as it
// was and its Message unobserved.
//
// The queue between Dispatch and update is unbounded by default, so Dispatch
// never waits; set [Options.MaxQueue] to refuse Dispatches beyond a bound
// with [ErrQueueFull] instead.
//
// Stopping comes in two strengths, because pending work sometimes matters and
// sometimes does not. [Program.Stop] drains: it refuses new Dispatches, then
// waits for queued Messages and running Cmds (a save in flight, say) to
// finish, bounded by its context. Cancelling the context given to Run
// abandons: the loop exits after the update in progress, queued Messages are
// dropped and every Cmd's context is cancelled.
package loop
