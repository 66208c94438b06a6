package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// tableModel has what an agent sees (Page, Items, Tags) and what it does
// not (Secret, which the projection leaves out).
type tableModel struct {
	Page   string
	Items  []string
	Tags   map[string]int
	Secret int
}

type tableView struct {
	Page  string         `json:"page"`
	Items []string       `json:"items"`
	Tags  map[string]int `json:"tags"`
}

type tableMsg interface{ isTableMsg() }

type (
	AddItem struct {
		Name string `json:"name"`
	}
	BumpSecret struct{}
	Untag      struct {
		Tag string `json:"tag"`
	}
	TagMany struct {
		N int `json:"n"`
	}
)

func (AddItem) isTableMsg()    {}
func (BumpSecret) isTableMsg() {}
func (Untag) isTableMsg()      {}
func (TagMany) isTableMsg()    {}

type tableApp struct{}

func (tableApp) Init() (tableModel, loop.Cmd[tableMsg]) {
	return tableModel{Page: "desk", Tags: map[string]int{"a": 1, "b": 2}}, nil
}

func (tableApp) Update(m tableModel, msg tableMsg) (tableModel, loop.Cmd[tableMsg]) {
	tags := make(map[string]int, len(m.Tags))
	for k, v := range m.Tags {
		tags[k] = v
	}
	switch msg := msg.(type) {
	case AddItem:
		m.Items = append(append([]string(nil), m.Items...), msg.Name)
	case BumpSecret:
		m.Secret++
	case Untag:
		delete(tags, msg.Tag)
	case TagMany:
		for i := range msg.N {
			tags[fmt.Sprintf("tag-%03d-%s", i, strings.Repeat("x", 40))] = i
		}
	}
	m.Tags = tags
	return m, nil
}

type tableCall = agent.Call[tableModel, agent.NoPrincipal]

func tableContract(withContext bool, authorize func(context.Context, AddItem, tableCall) (agent.Decision, error)) *agent.Contract[tableModel, agent.NoPrincipal] {
	d := agent.Definition[tableModel, agent.NoPrincipal]{
		Capabilities: []agent.Capability[tableModel, agent.NoPrincipal]{
			agent.Expose(agent.Variant[AddItem, tableModel, agent.NoPrincipal]{Description: "Add an item.", Authorize: authorize}),
			agent.Expose(agent.Variant[BumpSecret, tableModel, agent.NoPrincipal]{Description: "Change what the agent cannot see."}),
			agent.Expose(agent.Variant[Untag, tableModel, agent.NoPrincipal]{Description: "Remove a tag."}),
			agent.Expose(agent.Variant[TagMany, tableModel, agent.NoPrincipal]{Description: "Add many tags."}),
		},
	}
	if withContext {
		d.Context = agent.Project(func(m tableModel) tableView { return tableView{Page: m.Page, Items: m.Items, Tags: m.Tags} })
	}
	return agent.Make(d)
}

func newTable(t testing.TB, c *agent.Contract[tableModel, agent.NoPrincipal]) (*agent.Runtime[tableModel, tableMsg, agent.NoPrincipal], *loop.Program[tableModel, tableMsg]) {
	t.Helper()
	prog := loop.New[tableModel, tableMsg](tableApp{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return agent.MustBind(c, prog, nil), prog
}

func tableCallOf(t *testing.T, rt *agent.Runtime[tableModel, tableMsg, agent.NoPrincipal], name, payload string) agent.Result {
	t.Helper()
	res, err := rt.DispatchUnknown(context.Background(), name, json.RawMessage(payload), agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestAResultSaysWhatItsMessageChanged(t *testing.T) {
	rt, _ := newTable(t, tableContract(true, nil))
	before := rt.Version()
	res := tableCallOf(t, rt, "add_item", `{"name":"pen"}`)
	c := res.Changed
	if c == nil || c.From != before || c.To != before+1 || c.To != res.Version || c.Cut || c.Omitted != 0 {
		t.Fatalf("changed = %+v, version %d, before %d", c, res.Version, before)
	}
	if got := mustMarshal(t, c.Paths); got != `[{"path":"/items","value":["pen"]}]` {
		t.Fatalf("paths = %s", got)
	}
	// Every adapter sends it: it is in the reply's data.
	reply := agent.ReplyTo("add_item", res, nil)
	if !strings.Contains(string(reply.Data), `"changed":{"from":`) || !strings.Contains(string(reply.Data), `"value":["pen"]`) {
		t.Fatalf("reply data = %s", reply.Data)
	}
	// The authored sentence holds no runtime value.
	if strings.Contains(reply.Text, "pen") {
		t.Fatalf("reply text = %q", reply.Text)
	}
}

func TestAHiddenFieldsChangeNeverAppears(t *testing.T) {
	rt, prog := newTable(t, tableContract(true, nil))
	for range 3 {
		res := tableCallOf(t, rt, "bump_secret", `{}`)
		if res.Changed == nil || len(res.Changed.Paths) != 0 || res.Changed.Cut {
			t.Fatalf("a change the projection hides: %+v", res.Changed)
		}
		if data := string(agent.ReplyTo("bump_secret", res, nil).Data); strings.Contains(data, `"path"`) || !strings.Contains(data, `"paths":[]`) {
			t.Fatalf("reply data = %s", data)
		}
	}
	if prog.Model().Secret != 3 {
		t.Fatalf("the hidden field is %d; the calls did not reach update", prog.Model().Secret)
	}
}

func TestARemovedMemberIsMarked(t *testing.T) {
	rt, _ := newTable(t, tableContract(true, nil))
	res := tableCallOf(t, rt, "untag", `{"tag":"a"}`)
	if got := mustMarshal(t, res.Changed.Paths); got != `[{"path":"/tags/a","removed":true}]` {
		t.Fatalf("paths = %s", got)
	}
}

func TestAChangePastTheBoundSaysHowMuchWasLeftOut(t *testing.T) {
	rt, _ := newTable(t, tableContract(true, nil))
	const n = 40 // each path and value is over 60 bytes: more than the bound holds
	res := tableCallOf(t, rt, "tag_many", fmt.Sprintf(`{"n":%d}`, n))
	c := res.Changed
	if c == nil || !c.Cut || c.Omitted == 0 || len(c.Paths) == 0 || len(c.Paths)+c.Omitted != n {
		t.Fatalf("changed = %d paths, cut %v, omitted %d; want %d in all", len(c.Paths), c.Cut, c.Omitted, n)
	}
	if size := len(mustMarshal(t, c.Paths)); size > agent.MaxChangeBytes {
		t.Fatalf("the paths take %d bytes, over the bound %d", size, agent.MaxChangeBytes)
	}
}

func TestNoContextNoChange(t *testing.T) {
	rt, _ := newTable(t, tableContract(false, nil))
	if res := tableCallOf(t, rt, "add_item", `{"name":"pen"}`); res.Changed != nil {
		t.Fatalf("changed = %+v with no context projection", res.Changed)
	}
}

// A Message applied between the check and the call's own is in the
// change, and the versions say so: To is past From+1.
func TestAChangeNamesTheVersionsItSpans(t *testing.T) {
	var prog *loop.Program[tableModel, tableMsg]
	interleave := func(ctx context.Context, in AddItem, c tableCall) (agent.Decision, error) {
		if in.Name == "late" {
			if err := prog.Dispatch(ctx, AddItem{Name: "other"}); err != nil {
				return agent.Refuse, err
			}
		}
		return agent.Allow, nil
	}
	rt, p := newTable(t, tableContract(true, interleave))
	prog = p
	before := rt.Version()
	res := tableCallOf(t, rt, "add_item", `{"name":"late"}`)
	c := res.Changed
	if c.From != before || c.To != res.Version || c.To < before+2 {
		t.Fatalf("changed from %d to %d, result at %d; checked at %d", c.From, c.To, res.Version, before)
	}
	if got := mustMarshal(t, c.Paths); got != `[{"path":"/items","value":["other","late"]}]` {
		t.Fatalf("paths = %s", got)
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// BenchmarkChangedCall is a call on host/loop with a context projection
// (its result says what changed) against the same call with none: the
// ratio is what the change costs a call.
func BenchmarkChangedCall(b *testing.B) {
	for _, withContext := range []bool{false, true} {
		name := "none"
		if withContext {
			name = "context"
		}
		b.Run(name, func(b *testing.B) {
			rt, _ := newTable(b, tableContract(withContext, nil))
			ctx := context.Background()
			for b.Loop() {
				if _, err := rt.DispatchUnknown(ctx, "bump_secret", json.RawMessage(`{}`), agent.Invocation{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
