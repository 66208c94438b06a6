package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// Price encodes itself as "$42.42", while its Go fields say {"Cents": 42}.
type Price struct{ Cents int }

func (p Price) MarshalJSON() ([]byte, error) {
	return json.Marshal("$" + formatCents(p.Cents))
}

func formatCents(c int) string {
	s := []byte{byte('0' + c/1000%10), byte('0' + c/100%10), '.', byte('0' + c/10%10), byte('0' + c%10)}
	return strings.TrimLeft(string(s[:2]), "0") + string(s[2:])
}

type priced struct {
	Item  string `json:"item"`
	Price Price  `json:"price"`
}

// WirePrice is Price with its wire form declared.
type WirePrice struct{ Cents int }

func (WirePrice) WireSchema() json.RawMessage {
	return json.RawMessage(`{"type":"string","pattern":"^\\$[0-9]*\\.[0-9]{2}$"}`)
}

func (p WirePrice) MarshalJSON() ([]byte, error) { return Price(p).MarshalJSON() }

// LyingPrice declares a string and encodes a number once it is non-zero.
type LyingPrice struct{ Cents int }

func (LyingPrice) WireSchema() json.RawMessage { return json.RawMessage(`{"type":"string"}`) }

func (p LyingPrice) MarshalJSON() ([]byte, error) {
	if p.Cents == 0 {
		return []byte(`"free"`), nil
	}
	return json.Marshal(p.Cents)
}

type pricedModel struct {
	Cents int
}

type lyingView struct {
	Item  string     `json:"item"`
	Price LyingPrice `json:"price"`
}

func TestProjectionRefusedWhenItsSchemaAndEncodingDisagree(t *testing.T) {
	mustPanic(t, []string{"agent: Project", "priced.Price", "MarshalJSON", "WireSchema"}, func() {
		agent.Project(func(pricedModel) priced { return priced{} })
	})
	mustPanic(t, []string{`resource "prices"`, "priced.Price", "MarshalJSON"}, func() {
		agent.NewResource("prices", "Prices.", func(pricedModel) []priced { return nil })
	})
	mustPanic(t, []string{`resource "blob"`, "byte slice"}, func() {
		agent.NewResource("blob", "Bytes.", func(pricedModel) struct{ Data []byte } { return struct{ Data []byte }{} })
	})
	mustPanic(t, []string{"agent: Project", ",string"}, func() {
		agent.Project(func(pricedModel) struct {
			N int `json:"n,string"`
		} {
			return struct {
				N int `json:"n,string"`
			}{}
		})
	})
	mustPanic(t, []string{`resource "raw"`, "MarshalJSON"}, func() {
		agent.NewResource("raw", "Raw.", func(pricedModel) json.RawMessage { return nil })
	})
	mustPanic(t, []string{`resource "clock"`, "needs a read function"}, func() {
		agent.NewResource[pricedModel, int]("clock", "Clock.", nil)
	})
}

func TestProjectionWithWireSchemaIsAcceptedAndServed(t *testing.T) {
	type view struct {
		Item  string    `json:"item"`
		Price WirePrice `json:"price"`
		At    time.Time `json:"at"`
		Tags  map[string]int
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := agent.Make(agent.Definition[pricedModel, User]{
		Context: agent.Project(func(m pricedModel) view {
			return view{Item: "tea", Price: WirePrice(m), At: at}
		}),
	})
	schema := string(c.Describe().Context)
	for _, want := range []string{`"pattern"`, `"at":{"type":"string"}`, `"Tags":{"type":["null","object"]`} {
		if !strings.Contains(schema, want) {
			t.Fatalf("schema %s does not contain %s", schema, want)
		}
	}
	rt := agent.MustBind(c, &pricedHost{model: pricedModel{Cents: 4242}}, nil)
	got, err := rt.Context(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"item":"tea","price":"$42.42","at":"2026-01-02T03:04:05Z","Tags":null}`; string(got) != want {
		t.Fatalf("context %s, want %s", got, want)
	}
}

// pricedHost serves a Model the test can change.
type pricedHost struct{ model pricedModel }

func (h *pricedHost) Model() pricedModel                         { return h.model }
func (h *pricedHost) Dispatch(context.Context, CreateTodo) error { return nil }

func TestServedValueThatContradictsItsSchemaIsAProjectionError(t *testing.T) {
	c := agent.Make(agent.Definition[pricedModel, User]{
		Context: agent.Project(func(m pricedModel) lyingView { return lyingView{Item: "tea", Price: LyingPrice(m)} }),
		Resources: []agent.Resource[pricedModel]{
			agent.NewResource("price", "The price.", func(m pricedModel) LyingPrice { return LyingPrice(m) }),
		},
	})
	h := &pricedHost{}
	rt := agent.MustBind(c, h, nil)
	ctx := context.Background()

	// While the value keeps its word, it is served.
	if got, err := rt.Context(ctx); err != nil || string(got) != `{"item":"tea","price":"free"}` {
		t.Fatalf("honest context = %s, %v", got, err)
	}
	if got, err := rt.ReadResource(ctx, "price"); err != nil || string(got) != `"free"` {
		t.Fatalf("honest resource = %s, %v", got, err)
	}

	h.model = pricedModel{Cents: 4242}
	got, err := rt.Context(ctx)
	if got != nil {
		t.Fatalf("a lying context was served: %s", got)
	}
	var pe *agent.ProjectionError
	if !errors.As(err, &pe) || pe.Projection != "context" || pe.Resource {
		t.Fatalf("context err = %#v, want a *ProjectionError for the context", err)
	}
	if tagOf(err) != agent.TagProjection || agent.TagProjection != "AgentProjectionError" {
		t.Fatalf("tag %q", tagOf(err))
	}
	if cause := errors.Unwrap(err); cause == nil || !strings.Contains(cause.Error(), "/price") {
		t.Fatalf("cause %v should say where: /price", cause)
	}
	for _, leak := range []string{"4242", "42.42"} {
		if strings.Contains(err.Error(), leak) || strings.Contains(errors.Unwrap(err).Error(), leak) {
			t.Fatalf("the error restates the value: %q / %q", err, errors.Unwrap(err))
		}
	}

	got, err = rt.ReadResource(ctx, "price")
	if got != nil {
		t.Fatalf("a lying resource was served: %s", got)
	}
	if !errors.As(err, &pe) || pe.Projection != "price" || !pe.Resource || !strings.Contains(pe.Error(), `"price"`) {
		t.Fatalf("resource err = %#v", err)
	}
	data, _ := json.Marshal(pe)
	if string(data) != `{"_tag":"AgentProjectionError","projection":"price","message":`+mustJSON(pe.Error())+`}` {
		t.Fatalf("encoding %s", data)
	}

	// ReplyTo treats it as a defect: the authored message, never the cause.
	reply := agent.ReplyTo("price", agent.Result{}, err)
	if reply.OK || !reply.Defect || reply.Tag != agent.TagProjection || reply.Text != pe.Error() || reply.Err != err {
		t.Fatalf("reply = %+v", reply)
	}
	if strings.Contains(string(reply.Data), "4242") || strings.Contains(string(reply.Data), "/price") {
		t.Fatalf("reply data leaks: %s", reply.Data)
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
