package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// FuzzDispatchUnknown sends arbitrary names and payloads down the wire
// path. It must never panic, every refusal must be one of the typed
// errors, and a refusal must dispatch nothing.
func FuzzDispatchUnknown(f *testing.F) {
	for _, seed := range []struct{ name, payload string }{
		{"create_todo", `{"title":"a"}`}, {"create_todo", `{"title":1}`}, {"rename_todo", `{"id":"1","title":"b"}`},
		{"delete_selected_todo", `{}`}, {"delete_selected_todo", `[]`}, {"clear_completed", `null`},
		{"set_quantity", `{"quantity":"42"}`}, {"set_quantity", `{"quantity":"-1"}`}, {"nope", `{}`}, {"", ``},
		{"create_todo", `{"title":"a","title":"b"}`}, {"create_todo", "{\"title\":\"\xff\"}"},
	} {
		f.Add(seed.name, []byte(seed.payload))
	}
	f.Fuzz(func(t *testing.T, name string, payload []byte) {
		h := &host{model: selectedModel()}
		c, _, _ := newContract(h)
		rt := agent.MustBind(c, h, &agent.BindOptions[User]{
			Principal: func(context.Context, agent.Invocation) (User, error) { return User{Role: "viewer"}, nil },
		})
		before := len(h.sent())
		res, err := rt.DispatchUnknown(context.Background(), name, json.RawMessage(payload), agent.Invocation{})
		if err == nil {
			if res.Capability != name || len(h.sent()) != before+1 {
				t.Fatalf("success for %q without exactly one dispatch", name)
			}
			return
		}
		var typed agent.Error
		if !errors.As(err, &typed) {
			t.Fatalf("untyped refusal %T: %v", err, err)
		}
		switch typed.Tag() {
		case agent.TagUnknownCapability, agent.TagUnavailable, agent.TagInvalidInput, agent.TagAuthorization:
		default:
			t.Fatalf("unexpected refusal %s: %v", typed.Tag(), err)
		}
		if len(h.sent()) != before {
			t.Fatalf("refusal %s dispatched", typed.Tag())
		}
	})
}
