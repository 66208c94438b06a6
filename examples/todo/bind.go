package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/mcpagent"
)

// Runtime is the todo contract bound to the running App.
type Runtime = agent.Runtime[todo.List, tea.Msg, todo.Principal]

// Bound is the todo contract bound to a running App, with the audit log
// of every decision.
type Bound struct {
	// Runtime resolves the principal from the dispatch context (see
	// WithPrincipal); in-process callers use it. Its calls do not reach
	// the activity panel; a Session's do.
	Runtime *Runtime
	// Audit holds every decision of every runtime bound here, refusals
	// included.
	Audit *agent.AuditLog[todo.Principal]
	host  todo.Host[App, tea.Msg]
	// contract is todo.Contract, or todo.ContractAskingOwner when a
	// person is there to answer (BindConfig.AskOwner).
	contract *agent.Contract[todo.List, todo.Principal]
	timeout  time.Duration
	// held bounds the calls held for the owner's approval, per principal
	// and in all, across every session's runtime.
	held *agent.HeldBound[todo.Principal]
	// refuseUnaudited is BindConfig.RefuseUnaudited.
	refuseUnaudited bool

	feedOnce sync.Once
	feed     *mcpagent.Feed
}

// Feed returns the availability feed every MCP session of this App
// shares (mcpagent.Options.Feed): every principal's runtime is bound to
// the same App and contract, and what the contract offers depends on the
// list alone, so it is worked out once per change for all sessions rather
// than once per session. It is made on first use; Close releases it.
func (b *Bound) Feed() *mcpagent.Feed {
	b.feedOnce.Do(func() {
		// b.Runtime is bound to the same App and contract as every
		// RuntimeFor; NewFeed fails only for a nil runtime.
		b.feed, _ = mcpagent.NewFeed(b.Runtime, nil)
	})
	return b.feed
}

// Health is what the app reports about itself on a health read: for now
// its audit, which must not lose entries silently.
type Health struct {
	Audit AuditHealth `json:"audit"`
}

// AuditHealth is the audit log's health: the failures reported, the
// entries a sink did not keep, whether the last entry was not kept, and
// the last failure.
type AuditHealth struct {
	Failures  uint64    `json:"failures"`
	Lost      uint64    `json:"lost"`
	Failing   bool      `json:"failing"`
	Refusing  bool      `json:"refusing"`
	LastError string    `json:"lastError,omitempty"`
	LastAt    time.Time `json:"lastAt,omitzero"`
}

// Health reads the app's health.
func (b *Bound) Health() Health {
	h := b.Audit.Health()
	out := Health{Audit: AuditHealth{Failures: h.Failures, Lost: h.Lost, Failing: h.Failing, Refusing: h.Failing && b.refuseUnaudited, LastAt: h.LastAt}}
	if h.LastError != nil {
		out.Audit.LastError = h.LastError.Error()
	}
	return out
}

// Close releases the Feed, if one was made. Close the MCP servers and
// handlers using it first.
func (b *Bound) Close() {
	if b.feed != nil {
		b.feed.Close()
	}
}

// Session is the contract bound for one principal, as a protocol adapter
// serves it: every call acts as that principal, and each one, refused or
// not, is shown in the running App's activity panel with its arguments,
// its outcome and the reason the agent was given. It satisfies
// mcpagent.Runtime.
type Session struct {
	*Runtime
	who  todo.Principal
	host agent.Host[App, tea.Msg]
}

// RuntimeFor binds a session whose every call acts as p, sharing the
// audit log. A protocol adapter makes one per authenticated session:
// identity comes from the transport, never from a tool's arguments.
func (b *Bound) RuntimeFor(p todo.Principal) (*Session, error) {
	opts := todo.As(p)
	opts.Audit = b.Audit
	opts.ApprovalTimeout = b.timeout
	opts.HeldBound = b.held
	rt, err := agent.Bind(b.contract, b.list(), opts)
	if err != nil {
		return nil, err
	}
	return &Session{Runtime: rt, who: p, host: b.host}, nil
}

// DispatchUnknown runs the call through the contract and then reports it
// to the activity panel. The principal shown is the session's, the one
// its transport authenticated, also for a call refused before the
// contract resolved a principal (an unknown or unavailable capability,
// input that does not match the schema).
func (s *Session) DispatchUnknown(ctx context.Context, name string, payload json.RawMessage, inv agent.Invocation) (agent.Result, error) {
	res, err := s.Runtime.DispatchUnknown(ctx, name, payload, inv)
	s.report(name, payload, res, err)
	return res, err
}

func (s *Session) report(name string, payload json.RawMessage, res agent.Result, err error) {
	e := Activity{At: time.Now(), Who: s.who.Name, Capability: name, Input: compact(payload)}
	switch {
	case err == nil && res.Completion == nil:
		e.Outcome = agent.OutcomeDispatched
	case err == nil && res.Completion.Status == agent.Completed:
		e.Outcome = agent.OutcomeCompleted
	case err == nil:
		e.Outcome = agent.OutcomeFailed
	default:
		// Only a refusal is worded: the reply is the agent's, built
		// again here for its tag and text.
		reply := agent.ReplyTo(name, res, err)
		e.Outcome = outcome(reply.Tag)
		e.Reason = reply.Text
	}
	// The panel is a courtesy to the person: a host that is stopping
	// cannot take it, and the agent's answer does not depend on it. The
	// report is the app's own Message, not the agent's (devtools records
	// it as the app's, as the shop's), so it is dispatched with no
	// caller's context.
	_ = s.host.Dispatch(context.Background(), e.bounded())
}

// bounded is e with each agent-given text cut (approvals.Clip): the
// report is a Message a recorder (devtools) keeps as it was dispatched.
func (e Activity) bounded() Activity {
	e.Who, e.Capability, e.Input = approvals.Clip(e.Who), approvals.Clip(e.Capability), approvals.Clip(e.Input)
	e.Outcome, e.Reason = approvals.Clip(e.Outcome), approvals.Clip(e.Reason)
	return e
}

// outcome words an error's tag for the person reading the panel.
func outcome(tag string) string {
	switch tag {
	case agent.TagAuthorization, agent.TagUnavailable, agent.TagUnknownCapability, agent.TagInvalidInput,
		agent.TagNotFound, agent.TagStaleView, agent.TagState:
		return "refused"
	case agent.TagCompletionTimeout:
		return "not confirmed in time"
	case agent.TagNotDelivered:
		return "not delivered"
	case agent.TagCancelled:
		return "cancelled"
	case agent.TagDeclined:
		return "declined by the owner"
	case agent.TagApprovalTimeout:
		return "not answered in time"
	}
	return "failed (" + tag + ")"
}

// compact returns the JSON the agent sent on one line, or it as is when
// it is not JSON.
func compact(payload json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, payload); err != nil {
		return string(payload)
	}
	return b.String()
}

// list is the running App as the contract sees it: its List as saved.
func (b *Bound) list() todo.Host[todo.List, tea.Msg] {
	return todo.Focus(b.host, App.Kept)
}

// Bind binds the contract to a running App (a teahost.Host). Each
// principal's calls go through RuntimeFor.
//
// Every decision is recorded in an audit log, which more sinks (a JSON
// Lines file, slog) can follow.
func Bind(h todo.Host[App, tea.Msg], sinks ...agent.AuditSink) (*Bound, error) {
	return BindWith(h, BindConfig{}, sinks...)
}

// BindConfig configures BindWith. The zero value binds todo.Contract.
type BindConfig struct {
	// AskOwner binds todo.ContractAskingOwner: an agent's clear_completed
	// waits for the owner's approval in the app (y approves, n declines).
	// Set it when a person is at the terminal.
	AskOwner bool
	// ApprovalTimeout is how long such a request waits; zero is
	// agent.DefaultApprovalTimeout.
	ApprovalTimeout time.Duration
	// RefuseUnaudited refuses agents' calls while the audit sinks cannot
	// keep entries (agent.AuditOptions.RefuseUnaudited); off, a failing
	// sink is reported and calls go on.
	RefuseUnaudited bool
	// Logger receives every audit entry a sink did not keep; nil is
	// slog.Default. The App shows the count and the last failure too
	// (AuditTrouble), and Health reports them.
	Logger *slog.Logger
}

// BindWith is Bind with a configuration.
func BindWith(h todo.Host[App, tea.Msg], c BindConfig, sinks ...agent.AuditSink) (*Bound, error) {
	b := &Bound{host: h, contract: todo.Contract(), timeout: c.ApprovalTimeout,
		held:            agent.NewHeldBound(0, 0, func(_ context.Context, p todo.Principal) string { return p.Role + "\x00" + p.Name }),
		refuseUnaudited: c.RefuseUnaudited}
	if c.AskOwner {
		b.contract = todo.ContractAskingOwner()
	}
	logger := c.Logger
	if logger == nil {
		logger = slog.Default()
	}
	b.Audit = agent.NewAuditLog(agent.AuditOptions[todo.Principal]{
		Principal:       func(p todo.Principal) string { return p.Name },
		Sinks:           sinks,
		RefuseUnaudited: c.RefuseUnaudited,
		// Loud when an entry is lost: logged, counted (Health), and on
		// the App's screen. The host never blocks a Dispatch.
		OnError: func(err error) {
			logger.Error("todo: audit entry not kept", "err", err)
			// The screen shows the sink's own error ("write …: no space
			// left on device"), the log the whole report.
			shown := err
			if cause := errors.Unwrap(err); cause != nil {
				shown = cause
			}
			_ = h.Dispatch(context.Background(), AuditTrouble{Lost: b.Audit.Health().Lost, Err: shown.Error()})
		},
	})
	rt, err := agent.Bind(b.contract, b.list(), &agent.BindOptions[todo.Principal]{
		Principal:       principalFromContext,
		Audit:           b.Audit,
		ApprovalTimeout: b.timeout,
		HeldBound:       b.held,
	})
	if err != nil {
		return nil, err
	}
	b.Runtime = rt
	return b, nil
}

type principalKey struct{}

// WithPrincipal returns a context carrying p; dispatches made with it act
// as p. Identity comes from the caller's transport (a token, a session),
// never from tool arguments.
func WithPrincipal(ctx context.Context, p todo.Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

func principalFromContext(ctx context.Context, _ agent.Invocation) (todo.Principal, error) {
	p, _ := ctx.Value(principalKey{}).(todo.Principal)
	return p, nil
}

// Model returns the running App's current Model.
func (b *Bound) Model() App { return b.host.Model() }
