package teahost_test

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
)

func TestKeyNamesRoundTrip(t *testing.T) {
	for _, name := range []string{"enter", "esc", "tab", "shift+tab", "down", "up", "pgdown", "ctrl+c", "alt+x", "a", "/", "é", "space", "backspace"} {
		if got := teahost.Key(name).String(); got != name {
			t.Errorf("Key(%q).String() = %q", name, got)
		}
	}
	for _, bad := range []string{"", "enterr", "hyper+a", "ctrl+"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Key(%q) did not panic", bad)
				}
			}()
			teahost.Key(bad)
		}()
	}
	if got := teahost.Type("a\nb"); len(got) != 3 || got[1].String() != "\n" {
		t.Errorf("Type kept a newline as %q, want the character itself", got[1].String())
	}
}

// typist is a key-driven model: it records what it was typed, and in
// "dialog" mode it ignores keys but esc.
type typist struct {
	typed  string
	dialog bool
}

func (m typist) Init() tea.Cmd { return nil }
func (m typist) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case k.String() == "ctrl+d":
			m.dialog = !m.dialog
		case !m.dialog:
			m.typed += k.String()
		}
	}
	return m, nil
}
func (m typist) View() tea.View { return tea.NewView(m.typed) }

func TestKeysLandOnlyInTheirMode(t *testing.T) {
	h := teahost.New[typist, tea.Msg](typist{}, nil)
	done := make(chan teahost.KeysDone, 4)
	h.Observe(func(m tea.Msg) {
		switch d := m.(type) {
		case teahost.KeysDone:
			done <- d
		case teahost.KeysRefused:
			done <- teahost.KeysDone(d)
		}
	})
	runHeadless(t, h, nil)
	editing := func(m tea.Model) string {
		if m.(typist).dialog {
			return "not_offered"
		}
		return ""
	}
	ctx := context.Background()
	send := func(k teahost.Keys) teahost.KeysDone {
		t.Helper()
		if err := h.Dispatch(ctx, k); err != nil {
			t.Fatal(err)
		}
		return <-done
	}
	d := send(teahost.NewKeys("i1", "write", editing, teahost.Type("hi")...))
	if !d.Applied || !d.Changed || d.Invocation != "i1" || len(d.Keys) != 2 || h.Model().typed != "hi" {
		t.Fatalf("KeysDone = %+v, model %q; want both keys applied", d, h.Model().typed)
	}
	// The person opens the dialog; the agent's keys for the editor must
	// not land in it.
	send(teahost.NewKeys("p", "person", nil, teahost.Key("ctrl+d")))
	v := h.Model()
	d = send(teahost.NewKeys("i2", "write", editing, teahost.Type("xx")...))
	if d.Applied || d.Refused != "not_offered" || len(d.Keys) != 0 || d.Changed {
		t.Fatalf("KeysDone = %+v in the dialog, want not_offered and nothing pressed", d)
	}
	if h.Model() != v {
		t.Fatalf("model changed to %+v though no key was pressed", h.Model())
	}
}

// searcher finishes a search in a Cmd, as bubbles' list filters: enter
// starts it, and the result arrives as a Message of its own.
type searcher struct {
	query, found string
}

type searched struct{ found string }

func (m searcher) Init() tea.Cmd { return nil }
func (m searcher) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "enter" {
			q := m.query
			return m, func() tea.Msg { return searched{found: "results for " + q} }
		}
		m.query += msg.Text
	case searched:
		m.found = msg.found
	}
	return m, nil
}
func (m searcher) View() tea.View { return tea.NewView(m.query + " " + m.found) }

// With AwaitSettled, KeysDone is told once the application shows what the
// presses began: after the Message the search's Cmd returned.
func TestKeysDoneAwaitsTheSettledModel(t *testing.T) {
	h := teahost.New[searcher, tea.Msg](searcher{}, nil)
	outcomes := make(chan string, 4)
	h.Observe(func(m tea.Msg) {
		switch m.(type) {
		case teahost.Keys:
			outcomes <- "keys"
		case teahost.KeysDone:
			outcomes <- "done: " + h.Model().found
		}
	})
	runHeadless(t, h, nil)
	k := teahost.NewKeys("inv-1", "search", nil, append(teahost.Type("go"), teahost.Key("enter"))...).
		AwaitSettled(func(m tea.Model) bool { return m.(searcher).found != "" })
	if err := h.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if got := <-outcomes; got != "keys" {
		t.Fatalf("first observed %q, want the Keys", got)
	}
	if got := <-outcomes; got != "done: results for go" {
		t.Fatalf("KeysDone told as %q, want it once the search's result is shown", got)
	}
}

// racer searches on every press, each search in a Cmd of its own that
// may come back in any order, and shows whichever result came last, as
// bubbles' list filters. The search for "a" waits until release is
// closed.
type racer struct {
	query, shown string
	release      chan struct{}
}

type raced struct{ query string }

type ping struct{}

func (m racer) Init() tea.Cmd { return nil }
func (m racer) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		m.query += msg.Text
		q, release := m.query, m.release
		return m, func() tea.Msg {
			if q == "a" {
				<-release
			}
			return raced{q}
		}
	case raced:
		m.shown = msg.query
	}
	return m, nil
}
func (m racer) View() tea.View { return tea.NewView(m.shown) }

// With AwaitSettled, KeysDone waits for every Cmd the presses returned:
// the search for "ab" coming back first satisfies the condition, but the
// stale search for "a" is still out, and the outcome is told only once it
// is back, reporting what the application shows then.
func TestKeysDoneAwaitsThePressesCmds(t *testing.T) {
	release := make(chan struct{})
	h := teahost.New[racer, tea.Msg](racer{release: release}, nil)
	done := make(chan string, 4)
	shownAB, pinged := make(chan struct{}), make(chan struct{}, 1)
	h.Observe(func(m tea.Msg) {
		switch m.(type) {
		case teahost.KeysDone:
			done <- h.Model().shown
		case ping:
			pinged <- struct{}{}
		}
	})
	stop := h.Subscribe(func() {
		if h.Model().shown == "ab" {
			select {
			case <-shownAB:
			default:
				close(shownAB)
			}
		}
	})
	defer stop()
	runHeadless(t, h, nil)
	k := teahost.NewKeys("inv-1", "search", nil, teahost.Type("ab")...).
		AwaitSettled(func(m tea.Model) bool { return m.(racer).shown != "" })
	ctx := context.Background()
	if err := h.Dispatch(ctx, k); err != nil {
		t.Fatal(err)
	}
	<-shownAB
	// A Message applied after the result for "ab": by then the Host has
	// asked the condition, which holds.
	if err := h.Dispatch(ctx, ping{}); err != nil {
		t.Fatal(err)
	}
	<-pinged
	select {
	case got := <-done:
		t.Fatalf("KeysDone told (showing %q) while the search for \"a\" was still out", got)
	default:
	}
	close(release)
	if got := <-done; got != "a" {
		t.Fatalf("KeysDone told showing %q, want what the application shows once every search is back (the stale \"a\")", got)
	}
}
