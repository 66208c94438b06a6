package apps_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/examples/bubbles/apps"
)

func readInto[M tea.Model](t *testing.T, r *rig[M], v any) {
	t.Helper()
	raw, err := r.rt.Context(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

// The agent adds three lines while the person types z's and another
// reader reads the context: each of the agent's lines arrives whole, since
// its keys are pressed in one turn, and the textarea's in-place edits of
// its rows stay invisible to readers (-race).
func TestNotesWholeTask(t *testing.T) {
	r := start(t, apps.NewNotes(), apps.NotesContract)
	stop := r.person(t, "z")
	want := []string{"buy milk", "call Ann", "water the plants"}
	for _, line := range want {
		d := r.until(t, "add_line", `{"text":"`+line+`"}`)
		if !d.Changed {
			t.Fatalf("add_line %q changed nothing: %+v", line, d)
		}
	}
	stop()
	var v apps.NotesView
	readInto(t, r, &v)
	// The person's z's may come before an agent's line (typed on the row
	// the agent then writes on) or after it, never inside it.
	var got []string
	for _, l := range v.Lines {
		var on []string
		for _, w := range want {
			if strings.Contains(l, w) {
				on = append(on, w)
			}
		}
		if len(on) > 1 {
			t.Fatalf("line %q holds %q: the agent's lines were not kept apart", l, on)
		}
		got = append(got, on...)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("lines = %q, want each of %q whole on a line of its own, in order", v.Lines, want)
	}
}

// The person types the name themselves; the agent then chooses the plan
// and confirms: huh's form, a pointer its Update changes in place, read by
// the agent throughout (-race).
func TestSignupWholeTask(t *testing.T) {
	r := start(t, apps.NewSignup(), apps.SignupContract)
	stop := r.person(t, "") // readers only
	if _, err := r.call(t, "choose_plan", `{"plan":"team"}`); err == nil {
		t.Fatal("choose_plan was offered while the cursor is in Name")
	}
	if _, err := r.keys.Write([]byte("Ann\r")); err != nil {
		t.Fatal(err)
	}
	var v apps.SignupView
	// huh moves to the next field with a Cmd, so the move lands in a
	// later Update: read until it has, as an agent would.
	focus := func(key string) {
		for readInto(t, r, &v); v.Focused != key; readInto(t, r, &v) {
			<-r.changed
		}
	}
	focus("plan")
	if _, err := r.call(t, "choose_plan", `{"plan":"platinum"}`); err == nil {
		t.Fatal("a plan that does not exist was not refused")
	}
	r.until(t, "choose_plan", `{"plan":"enterprise"}`)
	focus("agree")
	r.until(t, "answer_confirmation", `{"agree":true}`)
	for readInto(t, r, &v); !v.Done; readInto(t, r, &v) {
		<-r.changed // huh submits with a Cmd too
	}
	stop()
	if v != (apps.SignupView{Focused: v.Focused, Name: "Ann", Plan: "enterprise", Agree: true, Done: true}) {
		t.Fatalf("form = %+v", v)
	}
}
