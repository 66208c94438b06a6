package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/shop/shop"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/host/inert"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/journey/fixed"
)

// Activity reports an agent's call, for the activity panel: which agent
// (Caller, the adapter's key for it: agent.CallerFrom), which capability
// or journey tool, with what input, and how it ended (with the reason the
// agent was given when it did not go through).
type Activity struct {
	At         time.Time
	Caller     string
	Capability string
	Input      string
	Outcome    string
	Reason     string
}

// Endpoint tells the app where it serves MCP, to show on screen.
type Endpoint struct{ URL string }

const (
	// keptActivity is how many lines the panel keeps to scroll through;
	// shownActivity is how many it shows at once.
	keptActivity  = 500
	shownActivity = 8
)

// App is the store as a Bubble Tea model: the store's Model, plus the
// activity panel and the endpoint line. It is a value: Update returns a
// new App.
type App struct {
	Shop shop.Model
	// activity is the panel (host/approvals draws it, and names the
	// callers agent 1, agent 2, … in the order they first act; the
	// approval card teahost draws shares its Agents).
	activity approvals.Activity
	endpoint string
	// editing is true while the person types a delivery address; draft
	// is what they have typed.
	editing bool
	draft   string
}

// NewApp returns the store on its catalog page, its panel empty.
func NewApp(payDelay time.Duration) App {
	return App{Shop: shop.New(payDelay), activity: approvals.NewActivity(approvals.ActivityOptions{Keep: keptActivity, Show: shownActivity})}
}

// Agents numbers the agents the panel names; the approval card shares it.
func (a App) Agents() *approvals.Agents { return a.activity.Agents() }

// Init implements tea.Model.
func (a App) Init() tea.Cmd { return nil }

// Update implements tea.Model: store Messages go to shop.Update, whose
// payment runs as a Cmd.
func (a App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case Activity:
		a = a.logged(msg)
		return a, nil
	case Endpoint:
		a.endpoint = msg.URL
		return a, nil
	case tea.KeyPressMsg:
		return a.key(msg)
	}
	// The runtime's approval Messages: the card is teahost's
	// (Options.Approvals); the panel says how each request ended.
	if next, ok := a.activity.Approval(msg, time.Now()); ok {
		a.activity = next
	}
	m, pay := shop.Update(a.Shop, msg)
	a.Shop = m
	if pay == nil {
		return a, nil
	}
	return a, func() tea.Msg { return pay() }
}

// key is the person at the keyboard. On checkout, a edits the delivery
// address (enter gives it, esc drops it), r opens the order review and x
// closes it; q quits. What the person does reaches the store as its own
// Messages (SetAddress, OpenReview, CloseReview), the same Update an
// agent's capabilities reach, but the address is theirs alone: no
// capability sends SetAddress.
func (a App) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	send := func(m any) tea.Cmd { return func() tea.Msg { return m } }
	if a.editing {
		switch msg.String() {
		case "enter":
			a.editing = false
			return a, send(shop.SetAddress{Address: a.draft})
		case "esc":
			a.editing = false
		case "backspace":
			if r := []rune(a.draft); len(r) > 0 {
				a.draft = string(r[:len(r)-1])
			}
		default:
			if len(a.draft)+len(msg.Text) <= shop.MaxAddress {
				a.draft += msg.Text
			}
		}
		return a, nil
	}
	switch msg.String() {
	case "q", "ctrl+c":
		return a, tea.Quit
	case "a":
		if a.Shop.Page == shop.PageCheckout {
			a.editing, a.draft = true, a.Shop.Address
		}
	case "r":
		return a, send(shop.OpenReview{})
	case "x":
		return a, send(shop.CloseReview{})
	case "up", "pgup":
		a.activity = a.activity.Scroll(step(msg.String()))
	case "down", "pgdown":
		a.activity = a.activity.Scroll(-step(msg.String()))
	case "end":
		a.activity = a.activity.End()
	}
	return a, nil
}

// step is how far a scrolling key moves the activity panel.
func step(key string) int {
	if key == "pgup" || key == "pgdown" {
		return shownActivity
	}
	return 1
}

// View implements tea.Model.
func (a App) View() tea.View {
	var b strings.Builder
	m := a.Shop
	b.WriteString("foldagent shop — an agent shops here; q quits, a gives the address at checkout, y/n answer an agent's request, ↑/↓ scroll the activity\n\n")
	fmt.Fprintf(&b, "page: %s", m.Page)
	if m.Page == shop.PageProduct {
		if p, ok := shop.Find(m.Product); ok {
			fmt.Fprintf(&b, " (%s, %d)", inert.Text(p.Name), p.Price)
		}
	}
	b.WriteString("\ncart:")
	if len(m.Cart) == 0 {
		b.WriteString(" empty")
	}
	for _, l := range m.Cart {
		fmt.Fprintf(&b, " %s×%d", inert.Text(l.SKU), l.Qty)
	}
	switch {
	case a.editing:
		fmt.Fprintf(&b, "\naddress: %s▏ (enter gives it, esc drops it)", inert.Text(a.draft))
	case m.Address != "":
		fmt.Fprintf(&b, "\naddress: %s", inert.Line(m.Address, 120))
	case m.Page == shop.PageCheckout:
		b.WriteString("\naddress: none yet (a gives it)")
	}
	if o, ok := m.CurrentOrder(); ok && m.Page == shop.PageCheckout {
		if m.Review {
			fmt.Fprintf(&b, "\nreview: %s  %d  %s (x closes it)", inert.Text(o.ID), o.Total, inert.Text(string(o.Status)))
		} else {
			b.WriteString("\nreview: closed (r opens it)")
		}
	}
	b.WriteString("\norders:")
	if len(m.Orders) == 0 {
		b.WriteString(" none")
	}
	for _, o := range m.Orders {
		fmt.Fprintf(&b, "\n  %s  %d  %s", inert.Text(o.ID), o.Total, inert.Text(string(o.Status)))
	}
	a.viewActivity(&b)
	if a.endpoint != "" {
		fmt.Fprintf(&b, "\n\nMCP: %s (fixed journey tools), %s/dynamic (dynamic tools)", a.endpoint, a.endpoint)
	}
	return tea.NewView(b.String() + "\n")
}

// viewActivity writes the panel (host/approvals draws its lines, inert).
func (a App) viewActivity(b *strings.Builder) {
	b.WriteString("\n\n")
	b.WriteString(strings.Join(a.activity.Lines(160), "\n"))
}

// logged adds e to the panel.
func (a App) logged(e Activity) App {
	a.activity = a.activity.Add(approvals.Entry{At: e.At, Caller: e.Caller, Capability: e.Capability, Input: e.Input, Outcome: e.Outcome, Reason: e.Reason})
	return a
}

// bounded is e with each text clipped: the report is a Message, which a
// recorder (devtools) keeps too, so it is made bounded where it is made.
func (e Activity) bounded() Activity {
	e.Caller, e.Capability, e.Input = approvals.Clip(e.Caller), approvals.Clip(e.Capability), approvals.Clip(e.Input)
	e.Outcome, e.Reason = approvals.Clip(e.Outcome), approvals.Clip(e.Reason)
	return e
}

// Activity returns the lines the panel keeps, oldest first.
func (a App) Activity() []approvals.Entry { return a.activity.Entries() }

// host is the running App as the contract sees it: the store's Model.
// Messages, Model changes and processed Messages pass through.
type host struct {
	*teahost.Host[App, tea.Msg]
}

func (h host) Model() shop.Model { return h.Host.Model().Shop }

// VersionedModel and ModelAt number the store's Models with the App's
// versions (agent.Versioned): every Update of the App is one.
func (h host) VersionedModel() (shop.Model, uint64) {
	a, v := h.Host.VersionedModel()
	return a.Shop, v
}

func (h host) ModelAt(v uint64) (shop.Model, bool) {
	a, ok := h.Host.ModelAt(v)
	return a.Shop, ok
}

// reporting is the runtime every route calls through: the contract's
// checked path, then a line in the activity panel. Fixed and dynamic
// tools both reach it, so the panel (and the audit log) shows both alike.
type reporting struct {
	*agent.Runtime[shop.Model, tea.Msg, agent.NoPrincipal]
	panel agent.Host[App, tea.Msg]
}

func (r reporting) DispatchUnknown(ctx context.Context, name string, payload json.RawMessage, inv agent.Invocation) (agent.Result, error) {
	res, err := r.Runtime.DispatchUnknown(ctx, name, payload, inv)
	e := Activity{At: time.Now(), Caller: agent.CallerFrom(ctx), Capability: name, Input: string(payload)}
	reply := agent.ReplyTo(name, res, err)
	switch {
	case err == nil && res.Completion == nil:
		e.Outcome = "done"
	case err == nil && res.Completion.Status == agent.Completed:
		e.Outcome = "completed"
	case err == nil:
		e.Outcome = "failed"
	case reply.Tag == agent.TagDeclined:
		e.Outcome = "declined by you"
	case reply.Tag == agent.TagApprovalTimeout:
		e.Outcome = "not answered in time"
	case reply.Tag == agent.TagPersonLeft:
		e.Outcome = "not answered: you left"
	default:
		e.Outcome, e.Reason = "refused", reply.Text
	}
	// A courtesy to the person watching; the agent's answer does not
	// depend on it.
	_ = r.panel.Dispatch(context.Background(), e.bounded())
	return res, err
}

// journeyRefusals puts in the panel the refusals the fixed tools make
// themselves (a step not offered now, an action only the person may take,
// a cursor behind the app): they never reach the contract, so
// DispatchUnknown never reports them. An answer that fired went through
// the contract and is reported there.
func (r reporting) journeyRefusals(ctx context.Context, tool string, args map[string]any, res fixed.CallResult) {
	if res.OK() || res.TransitionID() != "" {
		return
	}
	in, _ := json.Marshal(args)
	if args == nil {
		in = []byte("{}")
	}
	e := Activity{At: time.Now(), Caller: agent.CallerFrom(ctx), Capability: tool, Input: string(in), Outcome: "refused"}
	why := res.String("why")
	if why == "" {
		why = res.String("howToAct")
	}
	switch code := string(res.Reason()); {
	case code != "" && why != "":
		e.Reason = code + ": " + why
	default:
		e.Reason = code + why
	}
	_ = r.panel.Dispatch(context.Background(), e.bounded())
}
