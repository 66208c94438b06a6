package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// The demo is documentation a newcomer runs first: check that it shows a
// dispatch, every kind of refusal and the manifest.
func TestDemoShowsEachCase(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() { b, _ := io.ReadAll(r); done <- string(b) }()
	main()
	os.Stdout = stdout
	w.Close()
	out := <-done
	for _, want := range []string{
		"ok: Dispatched CreateTodo",
		"AgentUnknownCapabilityError",
		"AgentInvalidInputError",
		"AgentAuthorizationError: Only the list's owner may clear completed todos.",
		"AgentCancelledError",
		"AgentCapabilityUnavailableError",
		"AgentResourceError",
		`"capabilities": [`,
		`"name": "delete_selected_todo"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if strings.Count(out, "ok: Dispatched DeleteTodo") != 1 {
		t.Errorf("delete_selected_todo must succeed exactly once:\n%s", out)
	}
}
