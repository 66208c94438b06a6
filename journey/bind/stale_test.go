package bind_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/journeytest"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
)

// A shelf: the open item, and a cart the agent adds the open item to.
type shelf struct {
	Open string
	Cart []string
}

type (
	OpenItem struct{ SKU string }
	AddOpen  struct{ SKU string }
)

var openItem = agent.Watching("openItem", func(m shelf) string { return m.Open })

// heldRuntime holds the Model's change notifications back from the
// journey while held, so a test can put the Model ahead of what the
// session shows: the moment a person's edit has happened and the session
// has not yet followed it.
type heldRuntime struct {
	*agent.Runtime[shelf, any, np]
	mu       sync.Mutex
	held     bool
	missed   bool
	listener func()
}

func (h *heldRuntime) Subscribe(l func()) func() {
	h.mu.Lock()
	h.listener = l
	h.mu.Unlock()
	return h.Runtime.Subscribe(func() {
		h.mu.Lock()
		if h.held {
			h.missed = true
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
		l()
	})
}

func (h *heldRuntime) hold() { h.mu.Lock(); h.held = true; h.mu.Unlock() }

func (h *heldRuntime) release() {
	h.mu.Lock()
	h.held = false
	missed, l := h.missed, h.listener
	h.missed = false
	h.mu.Unlock()
	if missed {
		l()
	}
}

// shelfApp is the shelf's program: an item opened, the open item added
// to the cart, or the cart touched.
func shelfApp() loop.App[shelf, any] {
	return loop.Funcs(func() (shelf, loop.Cmd[any]) { return shelf{}, nil },
		func(m shelf, msg any) (shelf, loop.Cmd[any]) {
			switch msg := msg.(type) {
			case OpenItem:
				m.Open = msg.SKU
			case AddOpen:
				m.Cart = append(slices.Clone(m.Cart), msg.SKU)
			case Touch:
				m.Cart = append(slices.Clone(m.Cart), "touched")
			}
			return m, nil
		})
}

// shelfCaps are the shelf's capabilities: open_item, touch, and add_open,
// which watches the open item.
func shelfCaps() (open *agent.Exposed[OpenItem, shelf, np], touch *agent.Exposed[Touch, shelf, np], add *agent.Exposed[agent.NoInput, shelf, np]) {
	open = agent.Expose(agent.Variant[OpenItem, shelf, np]{Name: "open_item", Description: "Open an item."})
	touch = agent.Expose(agent.Variant[Touch, shelf, np]{Name: "touch", Description: "Touch the cart."})
	add = agent.ExposeMapped(agent.Mapped[agent.NoInput, AddOpen, shelf, np]{Name: "add_open", Description: "Add the open item.",
		Available: func(m shelf) bool { return m.Open != "" },
		ToMessage: func(_ agent.NoInput, c agent.Call[shelf, np]) AddOpen { return AddOpen{SKU: c.Model.Open} },
		Watches:   []agent.Watch[shelf]{openItem},
	})
	return open, touch, add
}

// staleTranscript drives one bound journey through a stale fire and
// returns what the agent was answered, as JSON lines.
func staleTranscript(t *testing.T) []string {
	t.Helper()
	app := shelfApp()
	open, _, add := shelfCaps()
	c := agent.Make(agent.Definition[shelf, np]{Capabilities: []agent.Capability[shelf, np]{open, add}})
	p := loop.New(app, nil)
	rt := &heldRuntime{Runtime: started(t, c, p, nil)}
	j, err := bind.New("shelf", rt, p.Model, bind.Def[shelf, np]{
		Page:  func(shelf) string { return "shelf" },
		State: func(m shelf) map[string]any { return map[string]any{"open": m.Open, "cart": m.Cart} },
		Pages: []bind.Page[shelf, np]{{ID: "shelf", Actions: []bind.Action[shelf, np]{
			{Name: "open", Does: "Open an item.", Capability: open, Writes: []string{"open"}},
			{Name: "add", Does: "Add the open item to the cart.", Capability: add, Writes: []string{"cart"}},
		}}},
	}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(j.Close)
	s := j.Session()
	ctx := context.Background()
	var lines []string
	record := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	settleErr := func(id string) *journey.SettleError {
		st := settle(t, s, id)
		record(struct {
			Effect  journey.EffectStatus
			Outcome journey.Outcome
			Error   *journey.SettleError
		}{st.EffectStatus, st.Outcome, st.Error})
		return st.Error
	}

	r := s.Fire(ctx, "shelf.open", journey.FireOptions{Input: map[string]any{"SKU": "red"}})
	if !r.OK {
		t.Fatalf("open: %+v", r)
	}
	if st := settle(t, s, r.TransitionID); st.EffectStatus != journey.EffectPerformed {
		t.Fatalf("open: %+v", st)
	}
	journeytest.WaitFor(t, s, "the open item", func() bool { return s.View().State()["open"] == "red" })
	seen := s.View().Version()

	// The person opens another item; the session has not followed yet.
	rt.hold()
	before := rt.Version()
	if err := p.Dispatch(ctx, OpenItem{SKU: "blue"}); err != nil {
		t.Fatal(err)
	}
	for rt.Version() == before {
		p.Model() // the loop applies it; the version says when
	}
	if s.View().Version() != seen {
		t.Fatal("the session followed a held change")
	}
	// The agent's fire passes the cursor (the session has not moved) and
	// is refused by the contract: the item open is not the one it saw.
	r = s.Fire(ctx, "shelf.add", journey.FireOptions{ExpectedVersion: &seen})
	if !r.OK {
		t.Fatalf("the cursor refused a fire at the session's own version: %+v", r)
	}
	e := settleErr(r.TransitionID)
	var data struct {
		Tag   string   `json:"_tag"`
		Moved []string `json:"moved"`
	}
	if e == nil || e.Reason != journey.ReasonStaleCursor || json.Unmarshal(e.Data, &data) != nil ||
		data.Tag != agent.TagStaleView || !slices.Equal(data.Moved, []string{"openItem"}) {
		t.Fatalf("a call built on what the agent did not see: %+v (data %s)", e, e.Data)
	}
	if cart := p.Model().Cart; len(cart) != 0 {
		t.Fatalf("a stale add reached the application: cart %v", cart)
	}

	// The session follows the person's change; a fire at the version the
	// agent last saw is refused by the cursor, in the same words.
	rt.release()
	journeytest.WaitFor(t, s, "the person's item", func() bool { return s.View().State()["open"] == "blue" })
	r = s.Fire(ctx, "shelf.add", journey.FireOptions{ExpectedVersion: &seen})
	record(struct {
		OK     bool
		Reason journey.Reason
	}{r.OK, r.Reason})
	if r.OK || r.Reason != journey.ReasonStaleCursor {
		t.Fatalf("an old cursor: %+v", r)
	}
	// After looking again, the add applies, to the item the agent saw.
	now := s.View().Version()
	r = s.Fire(ctx, "shelf.add", journey.FireOptions{ExpectedVersion: &now})
	if !r.OK {
		t.Fatalf("%+v", r)
	}
	if e := settleErr(r.TransitionID); e != nil {
		t.Fatalf("after looking again: %+v", e)
	}
	if cart := p.Model().Cart; !slices.Equal(cart, []string{"blue"}) {
		t.Fatalf("cart %v, want the item the agent saw", cart)
	}
	record(p.Model().Cart)
	return lines
}

// The fixed route's cursor and the contract's stale view are one rule: a
// fire that passes the session's cursor is still judged by the
// capability's watches against the Model the session showed, and the
// refusal is the cursor's (STALE_CURSOR, with the moved watches as data); after looking again the fire applies. The
// answers are the same on a second run.
func TestStaleViewAndStaleCursorAreOneRule(t *testing.T) {
	first := staleTranscript(t)
	second := staleTranscript(t)
	if !slices.Equal(first, second) {
		t.Fatalf("the answers differ between runs:\n%v\n%v", first, second)
	}
}

// Touch moves nothing an action watches.
type Touch struct{}

// A fire cites the version the session showed, and the session showed it
// whole: a person's change the session followed before the agent's last
// fire is one the agent saw, even though that fire's own Result did not
// carry it. The shop's pay, fired right after open-review's answer, was
// refused STALE_CURSOR for the address the person had given before, when
// no other Message came between open-review's and the pay.
func TestAFireAfterAnotherSeesWhatTheSessionShowed(t *testing.T) {
	app := shelfApp()
	open, touch, add := shelfCaps()
	c := agent.Make(agent.Definition[shelf, np]{Capabilities: []agent.Capability[shelf, np]{open, touch, add}})
	p := loop.New(app, nil)
	rt := started(t, c, p, nil)
	j, err := bind.New("shelf", rt, p.Model, bind.Def[shelf, np]{
		Page:  func(shelf) string { return "shelf" },
		State: func(m shelf) map[string]any { return map[string]any{"open": m.Open, "cart": m.Cart} },
		Pages: []bind.Page[shelf, np]{{ID: "shelf", Actions: []bind.Action[shelf, np]{
			{Name: "open", Does: "Open an item.", Capability: open, Writes: []string{"open"}},
			{Name: "touch", Does: "Touch the cart.", Capability: touch, Writes: []string{"cart"}},
			{Name: "add", Does: "Add the open item to the cart.", Capability: add, Writes: []string{"cart"}},
		}}},
	}, bind.Options{Caller: "conversation-1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(j.Close)
	s := j.Session()
	ctx := context.Background()
	fired := func(action string, in map[string]any) journey.Settlement {
		t.Helper()
		v := s.View().Version()
		r := s.Fire(ctx, action, journey.FireOptions{ExpectedVersion: &v, Input: in})
		if !r.OK {
			t.Fatalf("%s: %+v", action, r)
		}
		return settle(t, s, r.TransitionID)
	}
	if st := fired("shelf.open", map[string]any{"SKU": "red"}); st.Error != nil {
		t.Fatalf("open: %+v", st.Error)
	}
	// The person opens another item, and the session shows it.
	if err := p.Dispatch(ctx, OpenItem{SKU: "blue"}); err != nil {
		t.Fatal(err)
	}
	journeytest.WaitFor(t, s, "the person's item", func() bool { return s.View().State()["open"] == "blue" })
	// The agent's next fire is made after that answer; its Result is at
	// the newest version and carries nothing of the open item.
	if st := fired("shelf.touch", nil); st.Error != nil {
		t.Fatalf("touch: %+v", st.Error)
	}
	if st := fired("shelf.add", nil); st.Error != nil {
		t.Fatalf("add, on the item the session showed: %+v (data %s)", st.Error, st.Error.Data)
	}
	if cart := p.Model().Cart; !slices.Equal(cart, []string{"touched", "blue"}) {
		t.Fatalf("cart %v", cart)
	}
}
