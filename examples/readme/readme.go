package readme

import (
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agentotel"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/natsaudit"
)

type Todo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// The types of the sixty-seconds program (sixty/main.go), which the
// completion block continues.

type User struct{ Role string }

type Model struct {
	Todos    []Todo
	Selected string
}

type Msg interface{ isMsg() }
type CreateTodo struct {
	Title string `json:"title"`
}
type DeleteTodo struct{ ID string }

// Write the Model and principal types once, with aliases.
type (
	capability[M any] = agent.Variant[M, Model, User]
	mapped[In, M any] = agent.Mapped[In, M, Model, User]
	call              = agent.Call[Model, User]
)

func (CreateTodo) isMsg() {}
func (DeleteTodo) isMsg() {}

// README: completion

type CreateInput struct {
	Title string `json:"title"`
}

type CreateTodoRequest struct{ Title, RequestID string }

type CreatedTodo struct{ ID, RequestID string }

type RenameTodo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

func (CreateTodoRequest) isMsg() {}
func (CreatedTodo) isMsg()       {}
func (RenameTodo) isMsg()        {}

var create = agent.ExposeMapped(mapped[CreateInput, CreateTodoRequest]{
	Description: "Create a todo.",
	ToMessage: func(in CreateInput, c call) CreateTodoRequest {
		return CreateTodoRequest{Title: in.Title, RequestID: c.Invocation.ID}
	},
	// Complete on the CreatedTodo this call caused, even with two "Milk"s in flight.
	Completion: agent.CompleteOn(
		agent.On(func(_ CreateInput, got CreatedTodo, inv agent.Invocation) bool {
			return got.RequestID == inv.ID
		}),
	).Within(10 * time.Second),
})

// Or complete when a condition on state holds.
var rename = agent.Expose(capability[RenameTodo]{
	Description: "Rename a todo.",
	Completion: agent.When(
		func(m Model) []Todo { return m.Todos },
		func(todos []Todo, in RenameTodo) bool {
			return slices.Contains(todos, Todo(in))
		},
	),
})

// README: audit and traces

func observability(exporter sdktrace.SpanExporter, js jetstream.JetStream) *agent.BindOptions[User] {
	// Each dispatch runs in an "Agent.dispatch" span, exported as usual.
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter))
	// Each decision, refusals included, is an audit entry carrying that
	// span's trace id, kept on a JetStream stream that outlives the process.
	audit := agent.NewAuditLog(agent.AuditOptions[User]{
		Principal: func(u User) string { return u.Role },
		Sinks:     []agent.AuditSink{natsaudit.New(js, natsaudit.Options{Stream: "AUDIT"})},
	})
	return &agent.BindOptions[User]{Tracer: agentotel.Tracer(tp), Audit: audit}
}

// README: approvals in your own app

// screen is a view's own state (a host/loop app's, a page's): the deck
// of requests waiting for the person, beside the Model.
type screen struct{ deck approvals.Deck }

// heard takes the runtime's ApprovalAsked and ApprovalWithdrawn, as the
// app's update receives them.
func (s screen) heard(msg any) screen {
	s.deck, _ = s.deck.Update(msg, time.Now())
	return s
}

// draw draws the card in front, inert, in rows the app's content cannot reach.
func (s screen) draw(width int) []string {
	card, ok := s.deck.Card(time.Now())
	if !ok {
		return nil
	}
	return card.Lines(width)
}

// pressed gives the deck a key: a settled card's y or n is an answer
// naming the card drawn, for the app to dispatch in-app.
func (s screen) pressed(key string, dispatch func(agent.ApprovalAnswer)) screen {
	deck, answer, res := s.deck.Key(key, time.Now())
	if res == approvals.Answered {
		dispatch(answer)
	}
	s.deck = deck
	return s
}
