package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/approvals"
)

// reportHost takes the reports a session dispatches to the panel.
type reportHost struct{ got []tea.Msg }

func (h *reportHost) Model() App { return App{} }
func (h *reportHost) Dispatch(_ context.Context, m tea.Msg) error {
	h.got = append(h.got, m)
	return nil
}

// The report of an agent's call is a Message, which a recorder (devtools,
// a history of a thousand) keeps as it was dispatched: an agent's
// megabyte of input or capability name is cut where the report is made,
// saying how long it was.
func TestAReportOfACallIsBounded(t *testing.T) {
	h := &reportHost{}
	s := &Session{who: viewer, host: h}
	huge := strings.Repeat("é", 1<<19)
	in, _ := json.Marshal(map[string]string{"title": huge})
	s.report("x"+huge, in, agent.Result{}, &agent.UnknownCapabilityError{Capability: "x"})
	if len(h.got) != 1 {
		t.Fatalf("%d reports", len(h.got))
	}
	e, ok := h.got[0].(Activity)
	if !ok {
		t.Fatalf("%T", h.got[0])
	}
	for name, v := range map[string]string{"capability": e.Capability, "input": e.Input} {
		if len(v) > 2*approvals.MaxText || !strings.Contains(v, "bytes in all)") || !strings.HasPrefix(strings.TrimPrefix(v, `{"title":"`), "éé") && !strings.HasPrefix(v, "xé") {
			t.Fatalf("the report keeps %d bytes of the %s: %.60q", len(v), name, v)
		}
	}
	if e.Outcome != "refused" || e.Who != viewer.Name {
		t.Fatalf("%+v", e)
	}
}
