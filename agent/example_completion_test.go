package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agentslog"
)

// A tiny shopping-list application for the examples: adding an item is
// acknowledged later by an ItemAdded fact that carries the request id.

type exModel struct {
	Items []string
	Title string
}

type exMsg interface{ exMsg() }

type exAddItem struct {
	Name      string `json:"name"`
	RequestID string `json:"-"`
}
type exItemAdded struct {
	Name      string
	Position  int
	RequestID string
}
type exRenameList struct {
	Title string `json:"title"`
}

func (exAddItem) exMsg()    {}
func (exItemAdded) exMsg()  {}
func (exRenameList) exMsg() {}

type exUser struct {
	ID    string
	Email string
}

// exHost applies each Message at once and tells its listeners.
type exHost struct {
	mu    sync.Mutex
	model exModel
	subs  []func()
	obs   []func(exMsg)
}

func (h *exHost) Model() exModel {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.model
}

func (h *exHost) Dispatch(_ context.Context, msg exMsg) error {
	h.mu.Lock()
	var fact exMsg
	switch msg := msg.(type) {
	case exAddItem:
		h.model.Items = append(append([]string(nil), h.model.Items...), msg.Name)
		fact = exItemAdded{Name: msg.Name, Position: len(h.model.Items), RequestID: msg.RequestID}
	case exRenameList:
		h.model.Title = msg.Title
	}
	subs, obs := h.subs, h.obs
	h.mu.Unlock()
	for _, s := range subs {
		s()
	}
	for _, o := range obs {
		o(msg)
		if fact != nil {
			o(fact)
		}
	}
	return nil
}

// Listeners are never removed in this sketch; a real host removes them.
func (h *exHost) Subscribe(l func()) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.subs = append(h.subs, l)
	return func() {}
}

func (h *exHost) Observe(l func(exMsg)) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.obs = append(h.obs, l)
	return func() {}
}

// Completion on a Message, matched to its invocation by the id that
// ToMessage carries into the Message and update carries onto the fact.
func ExampleOnMessages() {
	type call = agent.Call[exModel, exUser]
	type addInput struct {
		Name string `json:"name"`
	}
	add := agent.ExposeMapped(agent.Mapped[addInput, exAddItem, exModel, exUser]{
		Name:        "add_item",
		Description: "Add an item to the shopping list.",
		ToMessage: func(in addInput, c call) exAddItem {
			return exAddItem{Name: in.Name, RequestID: c.Invocation.ID}
		},
		Completion: agent.CompleteOn(
			agent.On(func(_ addInput, got exItemAdded, inv agent.Invocation) bool {
				return got.RequestID == inv.ID
			}),
		).Within(5 * time.Second),
	})
	contract := agent.Make(agent.Definition[exModel, exUser]{Capabilities: []agent.Capability[exModel, exUser]{add}})
	rt := agent.MustBind(contract, &exHost{}, nil)

	res, err := agent.Dispatch(context.Background(), rt, add, addInput{Name: "Milk"}, agent.Invocation{ID: "req-1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fact := res.Completion.Message.(exItemAdded)
	fmt.Println(res.Completion.Status, fact.Name, fact.Position, fact.RequestID)
	fmt.Println(agent.Summarize(res))
	// Output:
	// completed Milk 1 req-1
	// true Completed: exItemAdded
}

// Completion on state: the capability is done when the Model shows the
// requested title, whichever path put it there.
func ExampleWhen() {
	rename := agent.Expose(agent.Variant[exRenameList, exModel, exUser]{
		Description: "Rename the shopping list.",
		Completion: agent.When(
			func(m exModel) string { return m.Title },
			func(title string, in exRenameList) bool { return title == in.Title },
		).Within(2 * time.Second),
	})
	contract := agent.Make(agent.Definition[exModel, exUser]{Capabilities: []agent.Capability[exModel, exUser]{rename}})
	rt := agent.MustBind(contract, &exHost{}, nil)

	res, err := agent.DispatchMessage(context.Background(), rt, exRenameList{Title: "Weekend"}, agent.Invocation{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Completion.Status, res.Completion.Message == nil)
	fmt.Println(agent.Summarize(res))
	// Output:
	// completed true
	// true Completed: exRenameList (its condition on state holds)
}

// An audit log that keeps the caller's id (never the identity) and the
// input with its secret field redacted, and forwards every entry to a
// log/slog logger.
func ExampleNewAuditLog() {
	type exLogin struct {
		User  string `json:"user"`
		Token string `json:"token"`
	}
	login := agent.ExposeMapped(agent.Mapped[exLogin, exRenameList, exModel, exUser]{
		Name:        "login",
		Description: "Log in.",
		Authorize: func(_ context.Context, _ exLogin, call agent.Call[exModel, exUser]) (agent.Decision, error) {
			if call.Principal.ID != "u-1" {
				return agent.Refuse, nil
			}
			return agent.Allow, nil
		},
		ToMessage: func(in exLogin, _ agent.Call[exModel, exUser]) exRenameList { return exRenameList{Title: in.User} },
	})
	contract := agent.Make(agent.Definition[exModel, exUser]{Capabilities: []agent.Capability[exModel, exUser]{login}})

	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "at" {
				return slog.Attr{} // keep the example's output stable
			}
			return a
		},
	}))
	audit := agent.NewAuditLog(agent.AuditOptions[exUser]{
		Capacity:     1000,
		Principal:    func(u exUser) string { return u.ID },
		IncludeInput: true,
		Redact:       []string{"token"},
		Sinks:        []agent.AuditSink{agentslog.AuditSink{Logger: logger}},
	})
	caller := "u-1"
	rt := agent.MustBind(contract, &exHost{}, &agent.BindOptions[exUser]{
		Audit: audit,
		Principal: func(context.Context, agent.Invocation) (exUser, error) {
			return exUser{ID: caller, Email: caller + "@example.com"}, nil
		},
	})
	payload := json.RawMessage(`{"user":"ada","token":"s3cret"}`)
	_, _ = rt.DispatchUnknown(context.Background(), "login", payload, agent.Invocation{ID: "a", Transport: agent.MCP})
	caller = "u-2"
	_, _ = rt.DispatchUnknown(context.Background(), "login", payload, agent.Invocation{ID: "b", Transport: agent.MCP})

	for _, e := range audit.Entries() {
		fmt.Println(e.Invocation, e.Principal, e.Decision, e.Outcome, string(e.Input))
	}
	// Output:
	// level=INFO msg="agent audit" invocation=a transport=mcp capability=login tag=exRenameList principal=u-1 decision=dispatched outcome=dispatched input="{\"user\":\"ada\",\"token\":\"[redacted]\"}"
	// level=INFO msg="agent audit" invocation=b transport=mcp capability=login tag=exRenameList principal=u-2 decision=refused outcome=AgentAuthorizationError input="{\"user\":\"ada\",\"token\":\"[redacted]\"}"
	// a u-1 dispatched dispatched {"user":"ada","token":"[redacted]"}
	// b u-2 refused AgentAuthorizationError {"user":"ada","token":"[redacted]"}
}

// A JSON Lines file that survives the process: each entry is one line,
// appended with a single write; SyncEveryEntry adds an fsync per entry.
func ExampleOpenJSONLinesSink() {
	dir, _ := os.MkdirTemp("", "audit")
	defer os.RemoveAll(dir)
	sink, err := agent.OpenJSONLinesSink(dir+"/audit.jsonl", agent.JSONLinesOptions{SyncEveryEntry: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sink.Close()
	audit := agent.NewAuditLog(agent.AuditOptions[exUser]{Sinks: []agent.AuditSink{sink}})
	rename := agent.Expose(agent.Variant[exRenameList, exModel, exUser]{Description: "Rename the shopping list."})
	rt := agent.MustBind(agent.Make(agent.Definition[exModel, exUser]{Capabilities: []agent.Capability[exModel, exUser]{rename}}),
		&exHost{}, &agent.BindOptions[exUser]{Audit: audit})
	_, _ = agent.DispatchMessage(context.Background(), rt, exRenameList{Title: "Weekend"}, agent.Invocation{ID: "inv-1"})

	b, _ := os.ReadFile(dir + "/audit.jsonl")
	var e agent.AuditEntry
	_ = json.Unmarshal(b, &e)
	fmt.Println(e.Invocation, e.Capability, e.Decision, e.Outcome)
	// Output:
	// inv-1 ex_rename_list dispatched dispatched
}
