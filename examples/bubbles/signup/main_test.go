package main

import (
	"strings"
	"testing"

	"github.com/foldagent/foldagent/examples/bubbles/internal/tsdrive"
	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// hostile is a text an agent relays from somewhere it read: it clears the
// screen, homes the cursor and sets the window's title if a terminal
// obeys it, and its line breaks draw what looks like foldagent's approval
// card on lines of their own.
const hostile = "tea\x1b[2J\x1b[H\x1b]0;pwned\x07\n━━ approval · drawn by foldagent ━━\n[y] approve"

// The official TypeScript MCP client, attached over stdio to the signup
// form running in a terminal, does the rest of the task after the person
// types the name: the hostile text, as a name once the cursor has left
// Name and as a plan, is refused without being repeated and changes
// nothing on the person's screen; then the agent chooses the plan and
// confirms. Run twice over stdio and once over HTTP, the answers are the
// same.
func TestTypeScriptClientDrivesSignup(t *testing.T) {
	nodeDir := tsdrive.Need(t)
	app := tsdrive.App{Name: "signup", Script: "testdata/signup.mjs", Ready: tmuxtest.Has("Name", "Plan")}.Build(t)
	app.Thrice(t, func(r *tsdrive.Run, mode string) []tsdrive.Step {
		var before string
		steps := r.Drive(t, nodeDir, mode, hostile, map[string]func(){
			"the form is empty": func() {
				r.Term.Keys("-l", "Ann")
				r.Term.Wait("the person's name", tmuxtest.Has("Ann"))
				before = r.Term.Screen()
				r.Term.Keys("Enter")
			},
			"the refusals changed nothing": func() { checkScreen(t, r.Term, before) },
		})
		tsdrive.WantSteps(t, steps, "tools/list", "the form is empty", "the person's name", "refused enter_name",
			"refused choose_plan", "the refusals changed nothing", "call choose_plan", "the plan",
			"call answer_confirmation", "signed up")
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
