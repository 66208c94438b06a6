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

// The official TypeScript MCP client, attached over stdio to the signup
// form running in a terminal, does the rest of the task after the person
// types the name. The hostile text, as a name once the cursor has left
// Name and as a plan, is refused without being repeated and changes
// nothing on the person's screen. The person goes back to Name; the agent
// types the text after the person's name: the model reads what huh's
// field holds, and the person's screen obeys none of its sequences and
// shows the fake card on the field's own row. The agent then chooses the
// plan and confirms. Run twice over stdio and once over HTTP, the answers
// are the same.
func TestTypeScriptClientDrivesSignup(t *testing.T) {
	nodeDir := tsdrive.Need(t)
	app := tsdrive.App{Name: "signup", Script: "testdata/signup.mjs", Ready: tmuxtest.Has("Name", "Plan"), Cols: 120, Rows: 24}.Build(t)
	app.Thrice(t, func(r *tsdrive.Run, mode string) []tsdrive.Step {
		var before string
		steps := r.Drive(t, nodeDir, mode, tsdrive.Hostile, map[string]func(){
			"the form is empty": func() {
				r.Term.Keys("-l", "Ann")
				r.Term.Wait("the person's name", tmuxtest.Has("Ann"))
				before = r.Term.Screen()
				r.Term.Keys("Enter")
			},
			"the refusals changed nothing": func() {
				checkScreen(t, r.Term, before)
				r.Term.Keys("BTab") // the person goes back to Name
			},
			"the name as the field holds it": func() { checkHostileScreen(t, r.Term) },
		})
		tsdrive.WantSteps(t, steps, "tools/list", "the form is empty", "the person's name", "refused enter_name",
			"refused choose_plan", "the refusals changed nothing", "the person went back", "call enter_name",
			"the name as the field holds it", "call choose_plan", "the plan",
			"call answer_confirmation", "signed up")
		checkRead(t, steps[8])
		for _, s := range steps[3:5] {
			t.Logf("the model reads: %s", s)
			if strings.Contains(string(s.Detail), "approval") || strings.Contains(string(s.Detail), "pwned") {
				t.Fatalf("the refusal repeats the agent's text: %s", s)
			}
		}
		r.Term.Wait("the form gone once submitted", tmuxtest.Lacks("Plan"))
		return steps
	})
}

// checkScreen reads the person's screen after the refusals: none of the
// hostile text is shown, nothing was cleared or homed (the first row is
// still the Name field's), and the name is the person's.
func checkScreen(t *testing.T, term *tmuxtest.Terminal, before string) {
	t.Helper()
	screen := term.Wait("the cursor in Plan", tmuxtest.Has("Ann", "team"))
	t.Logf("the person sees:\n%s", screen)
	for _, part := range []string{"approval", "approve", "pwned", "[2J"} {
		if strings.Contains(screen, part) {
			t.Fatalf("the screen shows %q of the refused text:\n%s", part, screen)
		}
	}
	// The first row is the Name field's title, with or without the
	// focus bar the form draws beside the field the cursor is in.
	first := func(s string) string { return strings.Trim(strings.SplitN(s, "\n", 2)[0], " ┃") }
	if first(screen) != "Name" || first(before) != "Name" {
		t.Fatalf("the first line was %q before the refusals and is %q now:\n%s", first(before), first(screen), screen)
	}
}

// checkHostileScreen reads the person's screen with the hostile text typed
// into the Name field after the person's name: its sequences are shown as
// text, nothing was cleared or homed, and every row showing part of the
// fake card is the Name field's own.
func checkHostileScreen(t *testing.T, term *tmuxtest.Terminal) {
	t.Helper()
	screen := term.Wait("the typed name, the cursor in Plan", tmuxtest.Has("> Ann", "approve", "┃ Plan"))
	t.Logf("the person sees:\n%s", screen)
	if !strings.Contains(screen, "> Ann"+tsdrive.Inert) {
		t.Fatalf("the text's sequences are not shown as inert text after the name:\n%s", screen)
	}
	rows := strings.Split(screen, "\n")
	if strings.Trim(rows[0], " ┃") != "Name" {
		t.Fatalf("the screen's first line is not the Name field's title (cleared or homed by the text):\n%s", screen)
	}
	for i, row := range rows {
		if (strings.Contains(row, "━━") || strings.Contains(row, "approve")) && !strings.Contains(row, "> Ann") {
			t.Fatalf("row %d shows the fake card outside the Name field:\n%s", i, screen)
		}
	}
}

// checkRead checks the name as the model reads it once the agent typed
// the hostile text after the person's: what the field holds.
func checkRead(t *testing.T, s tsdrive.Step) {
	t.Helper()
	var ctx struct{ Name string }
	if err := json.Unmarshal(s.Detail, &ctx); err != nil {
		t.Fatal(err)
	}
	if want := "Ann" + tsdrive.Kept(tsdrive.Hostile); ctx.Name != want {
		t.Fatalf("the model reads the name %q, want %q", ctx.Name, want)
	}
}
