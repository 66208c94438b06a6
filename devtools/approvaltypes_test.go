package devtools_test

import (
	"errors"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/host/loop"
)

type plainMsg struct{ N int }

// The runtime's approval Messages are never the developer's to dispatch:
// with dispatch on, a coding agent could otherwise send the person's
// answer (approving a held payment: the request and its fingerprint are
// in the history it reads), draw a card the runtime never asked, or take
// a waiting one off the person's screen. Declaring one is refused when
// devtools is made; the application's own types are still accepted.
func TestApprovalMessagesAreNeverDispatchable(t *testing.T) {
	for name, mt := range map[string]devtools.MessageType{
		"answer":    devtools.Message[agent.ApprovalAnswer](),
		"asked":     devtools.Message[agent.ApprovalAsked](),
		"withdrawn": devtools.Message[agent.ApprovalWithdrawn](),
	} {
		p := loop.New(loop.Funcs(func() (int, loop.Cmd[any]) { return 0, nil }, func(m int, _ any) (int, loop.Cmd[any]) { return m, nil }), nil)
		d, err := devtools.AttachLoop(p, devtools.Options{Messages: []devtools.MessageType{devtools.Message[plainMsg](), mt}})
		if !errors.Is(err, devtools.ErrOptions) {
			if d != nil {
				_ = d.Close()
			}
			t.Fatalf("%s: declared for dispatch: err %v, want ErrOptions", name, err)
		}
	}
	p := loop.New(loop.Funcs(func() (int, loop.Cmd[any]) { return 0, nil }, func(m int, _ any) (int, loop.Cmd[any]) { return m, nil }), nil)
	d, err := devtools.AttachLoop(p, devtools.Options{Messages: []devtools.MessageType{devtools.Message[plainMsg]()}})
	if err != nil {
		t.Fatalf("the application's own type: %v", err)
	}
	_ = d.Close()
}
