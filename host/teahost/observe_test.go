package teahost_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
)

type doorKey struct{}

// The recorder tells a dispatched Message (with its context) from the
// person's keys and window, and the sandbox replays on a copy.
func TestRecordTellsTheDoors(t *testing.T) {
	h := teahost.New[board, tea.Msg](board{}, nil)
	got := make(chan teahost.Applied[board], 16)
	stop, err := h.Record(func(a teahost.Applied[board]) { got <- a })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := h.Record(func(teahost.Applied[board]) {}); !errors.Is(err, teahost.ErrRecording) {
		t.Fatalf("a second recorder: %v; want ErrRecording", err)
	}
	runHeadless(t, h, strings.NewReader("x"))
	next := func() teahost.Applied[board] {
		t.Helper()
		select {
		case a := <-got:
			return a
		case <-time.After(5 * time.Second):
			t.Fatal("no Message recorded")
			return teahost.Applied[board]{}
		}
	}
	var key, window, dispatched teahost.Applied[board]
	for key.Source == 0 || window.Msg == nil {
		a := next()
		_, isKey := a.Msg.(tea.KeyPressMsg)
		_, isWindow := a.Msg.(tea.WindowSizeMsg)
		switch {
		case isKey && a.Source == teahost.FromInput:
			key = a
		case isWindow:
			window = a
		}
	}
	if window.Source != teahost.FromInput {
		t.Errorf("the window's size came by %v; want input", window.Source)
	}
	ctx := context.WithValue(context.Background(), doorKey{}, "mark")
	if err := h.Dispatch(ctx, setTitle{Title: "t"}); err != nil {
		t.Fatal(err)
	}
	for dispatched.Source == 0 {
		if a := next(); a.Source == teahost.FromDispatch {
			dispatched = a
		}
	}
	if dispatched.Ctx.Value(doorKey{}) != "mark" || dispatched.Model.Title != "t" || dispatched.Msg != (setTitle{Title: "t"}) {
		t.Errorf("dispatched = %+v", dispatched)
	}
	if key.Model.Keys != "x" {
		t.Errorf("the key's model = %+v", key.Model)
	}
	m, err := h.Sandbox()(key.Model, bump{N: 2})
	if err != nil || m.Count != 2 || key.Model.Count != 0 {
		t.Errorf("sandbox gave %+v, %v; the recorded model is %+v", m, err, key.Model)
	}
}
