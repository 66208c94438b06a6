package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/examples/bubbles/internal/tsdrive"
	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// The official TypeScript MCP client, attached over stdio to the notes
// running in a terminal, adds lines while the person types one of their
// own between them, and adds the hostile text. The model reads it back
// as one line; the person's screen obeys none of its sequences and shows
// the fake card inside the textarea. Run twice over stdio and once over
// HTTP, the answers are the same.
func TestTypeScriptClientDrivesNotes(t *testing.T) {
	nodeDir := tsdrive.Need(t)
	app := tsdrive.App{Name: "notes", Script: "testdata/notes.mjs", Ready: tmuxtest.Has("┃")}.Build(t)
	app.Thrice(t, func(r *tsdrive.Run, mode string) []tsdrive.Step {
		steps := r.Drive(t, nodeDir, mode, tsdrive.Hostile, map[string]func(){
			"the first line": func() {
				r.Term.Wait("the agent's line", tmuxtest.Has("buy milk"))
				r.Term.Keys("Enter")
				r.Term.Keys("-l", "call Ann")
			},
			"the hostile text is one line": func() { checkScreen(t, r.Term) },
		})
		tsdrive.WantSteps(t, steps, "tools/list", "call add_line", "the first line", "the person's line",
			"call add_line", "the hostile text is one line", "call add_line", "every line in order")
		checkRead(t, steps[5])
		r.Term.Wait("the last line", tmuxtest.Has("water the plants"))
		return steps
	})
}

// checkRead checks the hostile line as the model reads it: what the
// textarea holds, which is the text as sent with its line breaks typed as
// spaces and its control characters (ESC, BEL) left out, as the textarea
// leaves out a person's.
func checkRead(t *testing.T, s tsdrive.Step) {
	t.Helper()
	var ctx struct{ Lines []string }
	if err := json.Unmarshal(s.Detail, &ctx); err != nil {
		t.Fatal(err)
	}
	if want := tsdrive.Kept(tsdrive.Hostile); ctx.Lines[2] != want {
		t.Fatalf("the model reads %q, want %q", ctx.Lines[2], want)
	}
}

// checkScreen reads the person's screen with the hostile line in the
// notes: its sequences are shown as text, their escape bytes left out,
// nothing was cleared or drawn over (the first line is still the notes'
// first), and every row showing part of the fake
// card is a row of the textarea.
func checkScreen(t *testing.T, term *tmuxtest.Terminal) {
	t.Helper()
	screen := term.Wait("the hostile line", tmuxtest.Has("buy milk", "call Ann", "approve"))
	t.Logf("the person sees:\n%s", screen)
	if !strings.Contains(screen, tsdrive.Inert) {
		t.Fatalf("the text's sequences are not shown as inert text:\n%s", screen)
	}
	rows := strings.Split(screen, "\n")
	if !strings.Contains(rows[0], "buy milk") {
		t.Fatalf("the screen's first line is not the notes' first (cleared or homed by the text):\n%s", screen)
	}
	for i, row := range rows {
		if (strings.Contains(row, "━━") || strings.Contains(row, "approve")) && !strings.HasPrefix(strings.TrimSpace(row), "┃") {
			t.Fatalf("row %d shows the fake card outside the textarea:\n%s", i, screen)
		}
	}
}
