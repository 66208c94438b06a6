package main

import (
	"testing"

	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// TestAHuhFormGetsApprovals runs the real program: huh's form (a
// published model, unchanged) under teahost with approvals on. An
// agent's request to type into it is drawn over the form; the person
// keeps typing into the form meanwhile (their keys are the form's); a y
// before the card settled does nothing; the y after it types the agent's
// text into the field, and the card goes.
func TestAHuhFormGetsApprovals(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	bin := testbin.Build(t, "examples/formapproval")
	term := tmuxtest.Start(t, "form", bin+" -type 'Lovelace'", 100, 30)
	term.Wait("the form and the card", tmuxtest.Has("Your name", "APPROVE? Type this text into the form.", `text: "Lovelace"`, "asked by agent 1 over mcp"))
	// The person types into the form; their y right after is a key on a
	// card that has not settled (their typing restarted it): dropped,
	// neither an answer nor a letter in the form.
	term.Keys("-l", "Ada y")
	term.Wait("the person's typing in the form, the y refused", tmuxtest.Has("> Ada", "came too soon"))
	if s := term.Screen(); tmuxtest.Has("Ada Lovelace")(s) || tmuxtest.Has("Ada y")(s) {
		t.Fatalf("the early y reached the form or approved:\n%s", s)
	}
	term.Wait("the card settled", tmuxtest.Has("y approves, n declines"))
	term.Keys("y")
	term.Wait("the agent's text typed, the card gone", func(s string) bool {
		return tmuxtest.Has("Ada Lovelace")(s) && tmuxtest.Lacks("APPROVE?")(s)
	})
}
