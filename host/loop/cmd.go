package loop

import (
	"context"
	"runtime/debug"
	"sync"
)

// A Cmd is work an update asks for and the Program runs off the update
// goroutine: reading a file, saving, calling a server, waiting for a timer.
// It reports what happened by calling send with zero or more Messages, which
// the Program applies in the order they were sent, interleaved with Messages
// from every other source.
//
// send never blocks, and it may be called from any goroutine, including
// goroutines the Cmd starts, for as long as the Program is running or
// draining; after the Program has stopped it discards the Message. A Cmd
// should watch ctx: it is cancelled when the Program abandons its pending
// work (see [Program.Run] and [Program.Stop]). A Cmd that panics is contained
// and reported like a panicking update; Messages it sent before the panic are
// still applied.
//
// A nil Cmd means "nothing to do" everywhere a Cmd is accepted.
type Cmd[Msg any] func(ctx context.Context, send func(Msg))

// Emit returns a Cmd that sends msgs, in order, as soon as it runs. Use it
// when an update wants a follow-up Message applied after the current one
// rather than calling update recursively. It returns nil for no Messages.
func Emit[Msg any](msgs ...Msg) Cmd[Msg] {
	if len(msgs) == 0 {
		return nil
	}
	msgs = append([]Msg(nil), msgs...)
	return func(_ context.Context, send func(Msg)) {
		for _, m := range msgs {
			send(m)
		}
	}
}

// Batch returns a Cmd that runs cmds concurrently, each on its own
// goroutine, and returns when all of them have. Use it to return several
// independent effects from one update. The Messages of different Cmds may
// arrive in any order relative to each other. A Cmd in the batch that panics
// does not stop its siblings; its panic is reported once they have all
// finished. Nil Cmds are skipped; Batch returns nil when nothing is left and
// the single Cmd itself when only one is.
func Batch[Msg any](cmds ...Cmd[Msg]) Cmd[Msg] {
	cmds = compact(cmds)
	switch len(cmds) {
	case 0:
		return nil
	case 1:
		return cmds[0]
	}
	return func(ctx context.Context, send func(Msg)) {
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			panics cmdPanics
		)
		for _, c := range cmds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					if r := recover(); r != nil {
						mu.Lock()
						panics = append(panics, asPanics(r, "cmd")...)
						mu.Unlock()
					}
				}()
				c(ctx, send)
			}()
		}
		wg.Wait()
		if len(panics) > 0 {
			// Re-raised on the goroutine the Program watches, which reports
			// each one; the stacks were captured where they happened.
			panic(panics)
		}
	}
}

// Sequence returns a Cmd that runs cmds one after another on one goroutine,
// each starting after the previous one has returned, so their Messages arrive
// in the order of cmds. A panicking Cmd ends the sequence: the Cmds after it
// do not run, because they may depend on the work it did not finish. Nil Cmds
// are skipped; Sequence returns nil when nothing is left.
func Sequence[Msg any](cmds ...Cmd[Msg]) Cmd[Msg] {
	cmds = compact(cmds)
	switch len(cmds) {
	case 0:
		return nil
	case 1:
		return cmds[0]
	}
	return func(ctx context.Context, send func(Msg)) {
		for _, c := range cmds {
			if ctx.Err() != nil {
				return
			}
			c(ctx, send)
		}
	}
}

func compact[Msg any](cmds []Cmd[Msg]) []Cmd[Msg] {
	out := make([]Cmd[Msg], 0, len(cmds))
	for _, c := range cmds {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

// cmdPanics carries panics recovered inside a Batch to the goroutine the
// Program recovers on, keeping the stack of each where it happened.
type cmdPanics []*PanicError

// asPanics turns a recovered value into the panics to report. It must be
// called from the deferred function that recovered r, so that the stack it
// captures is the panicking goroutine's.
func asPanics(r any, source string) cmdPanics {
	if ps, ok := r.(cmdPanics); ok {
		return ps
	}
	return cmdPanics{{Source: source, Value: r, Stack: debug.Stack()}}
}
