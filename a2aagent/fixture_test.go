package a2aagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// A small jobs application: items to add and clear, and jobs whose
// completion arrives later as a JobDone or JobFailed fact, which the test
// dispatches itself, so it decides when (and whether) a job ends.

type model struct {
	Items []string
	Jobs  int
}

type msg interface{ isMsg() }

type (
	AddItem struct {
		Title string `json:"title"`
	}
	ClearItems struct{}
	StartJob   struct {
		ID string `json:"-"`
	}
	QuickJob struct {
		ID string `json:"-"`
	}
	JobDone   struct{ ID string }
	JobFailed struct{ ID string }
	Explode   struct{}
)

func (AddItem) isMsg()    {}
func (ClearItems) isMsg() {}
func (StartJob) isMsg()   {}
func (QuickJob) isMsg()   {}
func (JobDone) isMsg()    {}
func (JobFailed) isMsg()  {}
func (Explode) isMsg()    {}

type user struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

func update(m model, msg msg) (model, loop.Cmd[msg]) {
	switch msg := msg.(type) {
	case AddItem:
		m.Items = append(append([]string(nil), m.Items...), msg.Title)
	case ClearItems:
		m.Items = nil
	case StartJob, QuickJob:
		m.Jobs++
	}
	return m, nil
}

type jobInput struct{}

func jobCapability[M msg](name string, within time.Duration, newMsg func(id string) M) agent.Capability[model, user] {
	return agent.ExposeMapped(agent.Mapped[jobInput, M, model, user]{
		Name:        name,
		Description: "Start a job; the task ends when the job reports back.",
		ToMessage: func(_ jobInput, c agent.Call[model, user]) M {
			return newMsg(c.Invocation.ID)
		},
		Completion: agent.CompleteOn(
			agent.On(func(_ jobInput, got JobDone, inv agent.Invocation) bool { return got.ID == inv.ID }),
		).FailOn(
			agent.On(func(_ jobInput, got JobFailed, inv agent.Invocation) bool { return got.ID == inv.ID }),
		).Within(within),
	})
}

var contract = agent.Make(agent.Definition[model, user]{
	Capabilities: []agent.Capability[model, user]{
		agent.Expose(agent.Variant[AddItem, model, user]{Description: "Add an item to the list."}),
		agent.Expose(agent.Variant[ClearItems, model, user]{
			Description: "Remove every item. Only an owner may.",
			Available:   func(m model) bool { return len(m.Items) > 0 },
			Authorize: func(_ context.Context, _ ClearItems, c agent.Call[model, user]) (agent.Decision, error) {
				if c.Principal.Role != "owner" {
					return agent.RefuseBecause("Only an owner may clear the list."), nil
				}
				return agent.Allow, nil
			},
		}),
		jobCapability("start_job", 10*time.Second, func(id string) StartJob { return StartJob{ID: id} }),
		jobCapability("quick_job", 50*time.Millisecond, func(id string) QuickJob { return QuickJob{ID: id} }),
		agent.ExposeMapped(agent.Mapped[agent.NoInput, Explode, model, user]{
			Name:        "explode",
			Description: "Fail inside the application.",
			ToMessage: func(agent.NoInput, agent.Call[model, user]) Explode {
				panic("secret detail that must not reach the agent")
			},
		}),
	},
})

var tokens = map[string]user{
	"owner-tok":  {Name: "olivia", Role: "owner"},
	"viewer-tok": {Name: "victor", Role: "viewer"},
	"other-tok":  {Name: "oscar", Role: "owner"},
	// The same user name as owner-tok, with a weaker role.
	"olivia-viewer-tok": {Name: "olivia", Role: "viewer"},
}

func verifier(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	u, ok := tokens[token]
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: u.Name, Extra: map[string]any{"user": u}}, nil
}

type fixture struct {
	prog     *loop.Program[model, msg]
	h        *a2aagent.Handler
	srv      *httptest.Server
	audit    *agent.AuditLog[user]
	applied  atomic.Int64 // AddItem Messages update applied
	runtimes atomic.Int64 // NewRuntime calls
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// start runs the app and serves it over loopback HTTP.
func start(t testing.TB, configure func(*a2aagent.HTTPOptions)) *fixture {
	t.Helper()
	f := &fixture{prog: loop.New[model, msg](loop.Funcs(func() (model, loop.Cmd[msg]) { return model{}, nil }, update), nil)}
	f.audit = agent.NewAuditLog(agent.AuditOptions[user]{Capacity: 100000, Principal: func(u user) string { return u.Name }})
	f.prog.Observe(func(m msg) {
		if _, ok := m.(AddItem); ok {
			f.applied.Add(1)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = f.prog.Run(ctx) }()
	opts := a2aagent.HTTPOptions{
		Verifier: verifier,
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (a2aagent.Runtime, error) {
			f.runtimes.Add(1)
			u := info.Extra["user"].(user)
			return agent.Bind[model, msg, user](contract, f.prog, &agent.BindOptions[user]{
				Principal: func(context.Context, agent.Invocation) (user, error) { return u, nil },
				Audit:     f.audit,
			})
		},
		Contract: contract.Describe(),
		Card:     a2aagent.CardOptions{Name: "jobs"},
		Logger:   quietLogger(),
	}
	if configure != nil {
		configure(&opts)
	}
	h, err := a2aagent.NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	f.srv = httptest.NewServer(h)
	t.Cleanup(func() {
		f.srv.Close()
		h.Close()
		cancel()
		<-done
	})
	return f
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(req)
}

func httpClient(token string) *http.Client {
	return &http.Client{Transport: bearer{token: token, next: http.DefaultTransport}}
}

func (f *fixture) card(t testing.TB) *a2a.AgentCard {
	t.Helper()
	card, err := agentcard.NewResolver(http.DefaultClient).Resolve(context.Background(), f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return card
}

// client is an a2a-go client, over JSON-RPC, that sends token.
func (f *fixture) client(t testing.TB, token string) *a2aclient.Client {
	t.Helper()
	c, err := a2aclient.NewFromCard(context.Background(), f.card(t), a2aclient.WithJSONRPCTransport(httpClient(token)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Destroy() })
	return c
}

// skillMessage is a message calling skill with input (nil: no input).
func skillMessage(skill string, input any) *a2a.SendMessageRequest {
	data := map[string]any{"skill": skill}
	if input != nil {
		data["input"] = input
	}
	return &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(data))}
}

func sendTask(t testing.TB, c *a2aclient.Client, req *a2a.SendMessageRequest) *a2a.Task {
	t.Helper()
	res, err := c.SendMessage(context.Background(), req)
	if err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("SendMessage answered %T, want a task", res)
	}
	return task
}

// statusText is the text part of a task's status message.
func statusText(task *a2a.Task) string {
	if task.Status.Message == nil {
		return ""
	}
	for _, p := range task.Status.Message.Parts {
		if s, ok := p.Content.(a2a.Text); ok {
			return string(s)
		}
	}
	return ""
}

// statusData is the data part of a task's status message.
func statusData(task *a2a.Task) map[string]any {
	if task.Status.Message == nil {
		return nil
	}
	for _, p := range task.Status.Message.Parts {
		if d, ok := p.Content.(a2a.Data); ok {
			m, _ := d.Value.(map[string]any)
			return m
		}
	}
	return nil
}

func (f *fixture) model() model { return f.prog.Model() }

// waitTask polls GetTask until the task is in state, for up to five seconds.
func waitTask(t testing.TB, c *a2aclient.Client, id a2a.TaskID, state a2a.TaskState) *a2a.Task {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		task, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: id})
		if err != nil {
			t.Fatalf("GetTask: %v", err)
		}
		if task.Status.State == state {
			return task
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s is %s, want %s", id, task.Status.State, state)
		}
		// Polled over the protocol (tasks/get), as an A2A client learns a
		// task's state; no event of the server's store reaches the test.
		time.Sleep(2 * time.Millisecond)
	}
}

func isNotFound(err error) bool { return errors.Is(err, a2a.ErrTaskNotFound) }

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
