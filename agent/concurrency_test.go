package agent_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// 1,000 invocations with a completion contract run at once against one
// runtime and one host. All have the same title, so only the invocation id
// carried into the Message and back tells them apart. Every invocation must
// settle exactly once, with the fact its own Message produced, and the
// audit log must hold exactly one entry per invocation.
func TestConcurrentInvocationsSettleExactlyOnce(t *testing.T) {
	const n = 1000
	h := newCmpHost()
	defer h.start()()
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{Capacity: 2 * n, Principal: func(u cmpUser) string { return u.ID }})
	rt := cmpBind(cmpContract(), h, &agent.BindOptions[cmpUser]{Audit: audit, Principal: cmpPrincipal})

	type settled struct {
		id  string
		res agent.Result
		err error
	}
	out := make(chan settled, 2*n)
	var wg sync.WaitGroup
	for i := range n {
		id := fmt.Sprintf("inv-%04d", i)
		title := "Milk"
		if i%10 == 0 {
			title = "" // update reports a failure for these
		}
		wg.Go(func() {
			res, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"`+title+`"}`, agent.Invocation{ID: id})
			out <- settled{id, res, err}
		})
	}
	wg.Wait()
	close(out)

	seen := map[string]int{}
	todoOwner := map[string]string{}
	completed, failed := 0, 0
	for s := range out {
		seen[s.id]++
		if s.err != nil {
			t.Fatalf("%s: %v", s.id, s.err)
		}
		if s.res.Invocation.ID != s.id {
			t.Fatalf("%s got the result of %s", s.id, s.res.Invocation.ID)
		}
		switch msg := s.res.Completion.Message.(type) {
		case cmpCreated:
			if msg.RequestID != s.id || s.res.Completion.Status != agent.Completed {
				t.Fatalf("%s completed with %#v", s.id, msg)
			}
			if prev, dup := todoOwner[msg.ID]; dup {
				t.Fatalf("todo %s settled both %s and %s", msg.ID, prev, s.id)
			}
			todoOwner[msg.ID] = s.id
			completed++
		case cmpCreateFailed:
			if msg.RequestID != s.id || s.res.Completion.Status != agent.Failed {
				t.Fatalf("%s failed with %#v", s.id, msg)
			}
			failed++
		default:
			t.Fatalf("%s: completion message %#v", s.id, msg)
		}
	}
	if len(seen) != n || completed != n-n/10 || failed != n/10 {
		t.Fatalf("%d invocations settled (%d completed, %d failed), want %d", len(seen), completed, failed, n)
	}
	for id, times := range seen {
		if times != 1 {
			t.Fatalf("%s settled %d times", id, times)
		}
	}

	entries := audit.Entries()
	if len(entries) != n {
		t.Fatalf("audit holds %d entries, want %d", len(entries), n)
	}
	perInvocation := map[string]int{}
	for _, e := range entries {
		perInvocation[e.Invocation]++
		if e.Decision != agent.DecisionDispatched || e.Principal != "u-7" ||
			(e.Outcome != agent.OutcomeCompleted && e.Outcome != agent.OutcomeFailed) {
			t.Fatalf("entry = %+v", e)
		}
	}
	for id := range seen {
		if perInvocation[id] != 1 {
			t.Fatalf("%s has %d audit entries", id, perInvocation[id])
		}
	}
	if subs, obs := h.listeners(); subs != 0 || obs != 0 {
		t.Fatalf("listeners left behind: %d subscribe, %d observe", subs, obs)
	}
}

// Invocations that complete, time out and get cancelled at once, on
// Messages and on state, leave no waiter behind.
func TestConcurrentMixedExitsReleaseEverything(t *testing.T) {
	h := newCmpHost()
	defer h.start()()
	rt := cmpBind(cmpContract(), h, nil)
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			switch i % 4 {
			case 0:
				_, _ = cmpDispatch(t, rt, ctx, "create_todo", `{"title":"a"}`, agent.Invocation{})
			case 1:
				cancel()
				_, _ = cmpDispatch(t, rt, ctx, "create_todo", `{"title":"a"}`, agent.Invocation{})
			case 2:
				_, _ = cmpDispatch(t, rt, ctx, "rename_project", fmt.Sprintf(`{"name":"p%d"}`, i), agent.Invocation{})
			case 3:
				go cancel()
				_, _ = cmpDispatch(t, rt, ctx, "delete_todo", `{"id":"nope"}`, agent.Invocation{})
			}
		})
	}
	// Renames overwrite one another, so some state waiters will never see
	// their name; cancel them by renaming to every name once more.
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for i := 2; ; i += 4 {
		select {
		case <-done:
			if subs, obs := h.listeners(); subs != 0 || obs != 0 {
				t.Fatalf("listeners left behind: %d subscribe, %d observe", subs, obs)
			}
			return
		default:
		}
		h.queue <- cmpRenameProject{Name: fmt.Sprintf("p%d", i%200)}
	}
}
