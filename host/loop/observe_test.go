package loop_test

import (
	"context"
	"errors"
	"testing"

	"github.com/foldagent/foldagent/host/loop"
)

type ctxKey struct{}

// The recorder learns the door of each Message: a dispatch with its
// context, a Cmd with the version that returned it, a PanicMsg.
func TestRecordTellsTheDoors(t *testing.T) {
	p := loop.New(loop.Funcs(
		func() (int, loop.Cmd[int]) { return 0, nil },
		func(n, msg int) (int, loop.Cmd[int]) {
			switch msg {
			case 1:
				return n + 1, loop.Emit(2)
			case 3:
				panic("three")
			}
			return n + msg, nil
		},
	), &loop.Options[int]{PanicMsg: func(*loop.PanicError) int { return 100 }})
	got := make(chan loop.Applied[int, int], 8)
	stop, err := p.Record(func(a *loop.Applied[int, int]) { got <- *a })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Record(func(*loop.Applied[int, int]) {}); !errors.Is(err, loop.ErrRecording) {
		t.Fatalf("a second recorder: %v; want ErrRecording", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = p.Run(ctx) }()
	if err := p.Dispatch(context.WithValue(ctx, ctxKey{}, "person"), 1); err != nil {
		t.Fatal(err)
	}
	first, second := <-got, <-got
	if first.Source != loop.FromDispatch || first.Ctx.Value(ctxKey{}) != "person" || first.Version != 2 || first.Model != 1 {
		t.Errorf("the dispatched Message: %+v", first)
	}
	if second.Source != loop.FromCmd || second.Cause != 2 || second.Msg != 2 || second.Model != 3 {
		t.Errorf("the Cmd's Message: %+v", second)
	}
	_ = p.Dispatch(ctx, 3) // panics: not applied, so not recorded; its PanicMsg is
	third := <-got
	if third.Source != loop.FromPanic || third.Msg != 100 || third.Version != 4 {
		t.Errorf("the PanicMsg: %+v", third)
	}
	_ = p.Dispatch(loop.WithInput(context.WithValue(ctx, ctxKey{}, "click")), 4) // the person's input
	fourth := <-got
	if fourth.Source != loop.FromDispatch || !loop.IsInput(fourth.Ctx) || loop.IsInput(first.Ctx) || fourth.Ctx.Value(ctxKey{}) != "click" || fourth.Version != 5 {
		t.Errorf("the person's input: %+v", fourth)
	}
	if m, err := p.Sandbox()(third.Model, 5); err != nil || m != 108 || p.Model() != 107 {
		t.Errorf("sandbox gave %d, %v; the live Model is %d", m, err, p.Model())
	}
	var pe *loop.PanicError
	if _, err := p.Sandbox()(0, 3); !errors.As(err, &pe) {
		t.Errorf("sandbox of a panicking update: %v", err)
	}
	stop()
	stop()
	if _, err := p.Record(func(*loop.Applied[int, int]) {}); err != nil {
		t.Errorf("a recorder after stop: %v", err)
	}
}

// A recorder that panics is reported as a listener's, never turned into
// a Message: the Model it was told of stays published, its Cmd runs, and
// the listeners are still called for that Message.
func TestRecorderPanicIsContained(t *testing.T) {
	reports := make(chan *loop.PanicError, 4)
	p := loop.New(loop.Funcs(
		func() (int, loop.Cmd[int]) { return 0, nil },
		func(n, msg int) (int, loop.Cmd[int]) {
			if msg == 1 {
				return n + 1, loop.Emit(10)
			}
			return n + msg, nil
		},
	), &loop.Options[int]{
		OnPanic:  func(pe *loop.PanicError) { reports <- pe },
		PanicMsg: func(*loop.PanicError) int { return 1000 },
	})
	if _, err := p.Record(func(a *loop.Applied[int, int]) {
		if a.Msg == 1 {
			panic("recorder")
		}
	}); err != nil {
		t.Fatal(err)
	}
	observed := make(chan int, 4)
	p.Observe(func(msg int) { observed <- msg })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = p.Run(ctx) }()
	if err := p.Dispatch(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if pe := <-reports; pe.Source != "listener" || pe.Value != "recorder" {
		t.Errorf("reported %+v; want the recorder's panic as a listener's", pe)
	}
	if first, second := <-observed, <-observed; first != 1 || second != 10 {
		t.Errorf("observed %d then %d; want the Message and its Cmd's", first, second)
	}
	if m, v := p.VersionedModel(); m != 11 || v != 3 {
		t.Errorf("Model %d at v%d; want 11 at v3 (no PanicMsg applied)", m, v)
	}
}
