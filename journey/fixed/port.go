package fixed

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/foldagent/foldagent/journey"
)

// JourneyTools chooses how a port serves journeys: one tool per journey
// (the default) or one tool taking the journey id.
type JourneyTools string

// The journey tool modes.
const (
	// PerJourney serves <graph>.journey.<id> for every declared journey,
	// each described by the journey's own does.
	PerJourney JourneyTools = "per-journey"
	// Single serves one <graph>.journey tool taking journey: <id>. Its
	// bytes do not depend on how many journeys the graph declares, so the
	// tool array is byte-stable across apps, not merely across turns.
	// Whether a model chooses as well from one generic tool plus a list as
	// from N named tools is unmeasured, which is why it is opt-in.
	Single JourneyTools = "single"
)

// Options configure Serve. The zero value is the port a model
// should be given: high-effect actions need confirmation, every fire is
// stamped agent, and journeys are served one tool each.
type Options struct {
	// SkipConfirm turns off the confirmation pause for high-effect
	// actions (the protocol's confirmHighEffect: false), so they fire on
	// the first call. It is an opt-out: false, the zero value, keeps the
	// pause, so a port nobody configured is the careful one. It is
	// ignored when the port is gated (the session requires human
	// approval and the source is agent): then confirmation is always on.
	SkipConfirm bool
	// Source is the actor stamped on every fire, journey commit and
	// ask the port makes. Empty means agent. Leave it at agent for any
	// port a model drives: a user or system source declares the fires to
	// be the app's own self-report, which is not gated by NOT_MATERIALIZED.
	Source journey.Actor
	// JourneyTools is PerJourney (the default when empty) or Single.
	JourneyTools JourneyTools
	// Observe, when set, is told of every answer the port gives, with the
	// call's context, tool name and arguments, after the answer is
	// written and before it is returned; it gets copies. It is how an application
	// shows the person what the model was told: a refusal the journey
	// makes itself (a step not offered, a firewall, a stale cursor) never
	// reaches the contract, so neither its audit log nor its runtime sees
	// it. Observe runs on the caller's goroutine and should return
	// quickly; a panic in it is recorded as a defect and the answer is
	// still returned. Nil observes nothing.
	Observe func(ctx context.Context, tool string, args map[string]any, answer CallResult)
	// Repeat serves every answer whole: each explanatory sentence (a
	// *Means field, the ready steps' howToAct, the facts header), each
	// input schema, each later row and the brief on every answer that
	// has them. By default a port says each once (once.go): it serves one
	// conversation, whose model read it the first time. Set it for a
	// port whose model does not keep the conversation; for one several
	// models share, call Share, which also stops whats_here's deltas
	// (journeymcp.NewServer calls it when a second MCP session calls its
	// one port).
	Repeat bool
}

// Tool is one tool a port serves, shaped as MCP's tools/list entry.
// InputSchema is a JSON Schema object.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

type toolKind int

const (
	kindJourney toolKind = iota + 1
	kindSingle
	kindWhatsHere
	kindWhy
	kindDoAction
	kindDidItWork
)

type toolRef struct {
	kind    toolKind
	journey string
}

// Port serves a session to a model as a fixed set of tools (Mode B). The
// tool set is computed once, when the port is built, and every Tools call
// returns the same bytes for the life of the port: tools render first in a
// prompt, so a stable set keeps the prompt cache warm, and any plain MCP
// host can drive it without dynamic tools. What changes from turn to turn
// (which actions and steps are offered, what happened) rides the results.
//
// A Port is safe for concurrent use. Build one with Serve.
type Port struct {
	s       *journey.Session
	graphID string
	confirm bool
	gated   bool
	source  journey.Actor

	tools *toolSet

	// looks is what whats_here served and the model's last look.
	looks *lookBook
	// told is what the port has said to its conversation, said once
	// (once.go).
	told *told

	observe func(context.Context, string, map[string]any, CallResult)
}

// Serve builds the port for a session. It panics on a nil session or
// an unknown JourneyTools mode (definition-time mistakes, like
// regexp.MustCompile).
func Serve(s *journey.Session, opts Options) *Port {
	if s == nil {
		panic("fixed: Serve needs a session")
	}
	mode := opts.JourneyTools
	switch mode {
	case "":
		mode = PerJourney
	case PerJourney, Single:
	default:
		panic(fmt.Sprintf("fixed: Serve: unknown JourneyTools mode %q (use PerJourney or Single)", mode))
	}
	src := opts.Source.Normalized()
	p := &Port{s: s, graphID: s.Graph().ID(), source: src, looks: newLookBook(), observe: opts.Observe,
		told: newTold(opts.Repeat)}
	p.gated = s.Enforced() && src == journey.ActorAgent
	p.confirm = !opts.SkipConfirm || p.gated
	p.tools = toolsOf(s.Graph(), p.graphID, mode, p.gated, p.confirm)
	return p
}

// Gated reports whether the session requires a person's approval for the
// fires this port makes (it enforces approval and the source is agent).
func (p *Port) Gated() bool { return p.gated }

// Session returns the session the port serves.
func (p *Port) Session() *journey.Session { return p.s }

// Tools returns the fixed tool set: per journey <graph>.journey.<id> (or
// one <graph>.journey in Single mode), then <graph>.whats_here,
// <graph>.why, <graph>.do_action and <graph>.did_it_work. Every call
// returns a fresh copy of the same bytes.
func (p *Port) Tools() []Tool {
	out := make([]Tool, len(p.tools.tools))
	for i, t := range p.tools.tools {
		t.InputSchema = append(json.RawMessage(nil), t.InputSchema...)
		out[i] = t
	}
	return out
}

// ToolNames lists the served tool names in order.
func (p *Port) ToolNames() []string { return append([]string(nil), p.tools.names...) }

// ToolsJSON is the tool array as the bytes a host would serve.
func (p *Port) ToolsJSON() []byte {
	b, _ := marshal(p.tools.tools)
	return b
}

// ---- tool names ----

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

const encPrefix = "_enc_"

// encodeToolName makes any string a valid MCP tool name, reversibly. A
// name that already is one (and does not start with the escape prefix)
// passes unchanged; anything else becomes "_enc_" plus an escaped form in
// which '_' is "__" and every other unit outside [A-Za-z0-9.-] is _uXXXX
// (UTF-16 code units, hex).
func encodeToolName(s string) string {
	if toolNameRE.MatchString(s) && !strings.HasPrefix(s, encPrefix) {
		return s
	}
	var b strings.Builder
	b.WriteString(encPrefix)
	for _, u := range utf16.Encode([]rune(s)) {
		switch {
		case u == '_':
			b.WriteString("__")
		case u < 0x80 && (u == '.' || u == '-' || ('0' <= u && u <= '9') || ('a' <= u && u <= 'z') || ('A' <= u && u <= 'Z')):
			b.WriteByte(byte(u))
		default:
			fmt.Fprintf(&b, "_u%04X", u)
		}
	}
	return b.String()
}

// decodeToolName reverses encodeToolName. It reports false for a string
// that is not a valid encoding.
func decodeToolName(name string) (string, bool) {
	if !strings.HasPrefix(name, encPrefix) {
		return name, toolNameRE.MatchString(name)
	}
	rest := name[len(encPrefix):]
	var units []uint16
	for i := 0; i < len(rest); {
		c := rest[i]
		if c != '_' {
			units = append(units, uint16(c))
			i++
			continue
		}
		if i+1 < len(rest) && rest[i+1] == '_' {
			units = append(units, '_')
			i += 2
			continue
		}
		if i+6 > len(rest) || rest[i+1] != 'u' {
			return "", false
		}
		var u uint16
		if _, err := fmt.Sscanf(rest[i+2:i+6], "%04X", &u); err != nil {
			return "", false
		}
		units = append(units, u)
		i += 6
	}
	return string(utf16.Decode(units)), true
}

// ---- calls ----

// Call routes one tool call and returns its result as plain data. It is
// synchronous: it never waits for the app (did_it_work is a poll, and a
// fire's result says pending when the app has not finished). Every result
// carries ok and judgment, and the position (youAreOn, version) except an
// UNKNOWN_TOOL refusal. args are the tool's arguments as decoded JSON;
// extra keys are ignored and wrong types read as absent.
//
// The judgment routes the result. On a journey frame it is
// navigate-or-wait, one-ready-step or needs-choice (how many steps can be
// fired now), and done when every step is (startWith then names the
// first step of a new round); whats_here counts the clickable actions the
// same way, and a whats_here {sinceVersion} in which nothing served
// changed answers unchanged. A pause is needs-confirm (nothing was
// done: performed is false), a recorded refusal of the human is
// declined, a fire the session refused is rejected (with its typed
// reason), a failing precondition is blocked, and a call the port itself
// cannot route (unknown step, action, journey, missing argument) is
// error. A do_action that fired answers done once the fire is at rest
// and navigate-or-wait while it is pending (howToSettle and settleWith
// then name did_it_work). did_it_work adds its own words: still-pending,
// and for an askId awaiting-human, approved-not-yet-done, declined,
// approval-withdrawn or approval-no-longer-valid; its settled arm says
// done, or rejected when the fire came to rest refused, rejected or
// rolled back.
//
// Call never panics: a defect in host code it reaches is reported as a
// result with reason DEFECT.
func (p *Port) Call(ctx context.Context, name string, args map[string]any) CallResult {
	if ctx == nil {
		ctx = context.Background()
	}
	res := p.call(ctx, name, args)
	p.told.laterDelta(&res, false)
	p.told.sayOnce(&res, nil)
	if p.observe != nil {
		p.tell(ctx, name, maps.Clone(args), res.Clone())
	}
	return res
}

// tell hands an answer to the observer, keeping its panic on this side.
func (p *Port) tell(ctx context.Context, name string, args map[string]any, res CallResult) {
	defer func() {
		if v := recover(); v != nil {
			p.s.RecordDefect("port observer "+name, v)
		}
	}()
	p.observe(ctx, name, args, res)
}

func (p *Port) call(ctx context.Context, name string, args map[string]any) (res CallResult) {
	defer p.guard(name, &res)
	ref, ok := p.tools.refs[name]
	if !ok {
		return resultOf(callRefusal{verdict: verdict{Judgment: "error", Reason: "UNKNOWN_TOOL"}, Tools: p.ToolNames()})
	}
	a := callArgs(args)
	switch ref.kind {
	case kindJourney:
		res = p.callJourney(ctx, ref.journey, a)
	case kindSingle:
		res = p.callSingle(ctx, a)
	case kindWhatsHere:
		res = p.whatsHere(a)
		p.looks.saw(&res)
		return res
	case kindWhy:
		res = p.why(a)
	case kindDoAction:
		res = p.doAction(ctx, a.fire())
	default:
		res = settlements{p.s}.didItWork(a)
	}
	// Every result names a version, but only whats_here serves rows: a
	// whats_here {sinceVersion} naming another answer's version is
	// compared with the rows last served at or before it, which are all
	// the model was shown.
	if ref.kind == kindJourney || ref.kind == kindSingle {
		p.looks.saw(&res)
	}
	return res
}

// staleFor returns the keys among reads and writes that someone other
// than this port's source changed since the version given (none when
// since < 0: there was no earlier look).
func staleFor(changed, reads, writes []string) (sr, sw []string) {
	for _, k := range reads {
		if slices.Contains(changed, k) {
			sr = append(sr, k)
		}
	}
	for _, k := range writes {
		if slices.Contains(changed, k) {
			sw = append(sw, k)
		}
	}
	return sr, sw
}

// Fold brings a result up to date once the fire it carries has come to
// rest: the settled facts are folded in (FoldSettled), the position is
// read again, and a journey result's frame is computed again from the
// state the fire produced, so that no step is shown waiting on a fire
// that is already at rest. It reports false, changing nothing, while the
// fire is still in flight or when r carries no fire.
func (p *Port) Fold(r *CallResult) bool {
	id := r.TransitionID()
	if id == "" || !r.OK() {
		return false
	}
	facts, done, err := p.SettledAnswer(id)
	if err != nil || !done {
		return false
	}
	kept := legendIn(*r, map[string]bool{})
	defer p.told.sayOnce(r, kept)
	r.FoldSettled(facts)
	refused := !r.OK()
	if j := r.String("journey"); j != "" {
		var fresh CallResult
		p.frameData(&fresh, j)
		for _, k := range frameKeys {
			if !fresh.Has(k) {
				r.Delete(k)
			}
		}
		for _, e := range fresh.kv {
			r.set(e.k, e.v)
		}
		if refused {
			// The refusal's judgment overrides the frame's, as for a
			// fire refused at its gates.
			r.set("ok", false).set("judgment", "rejected")
		}
	}
	r.Delete("offGraph")
	p.position(r)
	p.looks.saw(r)
	p.told.laterDelta(r, true)
	return true
}

// CallJSON is Call for raw JSON arguments (as an MCP tools/call carries
// them). Arguments that are not a JSON object read as no arguments.
func (p *Port) CallJSON(ctx context.Context, name string, args json.RawMessage) CallResult {
	var m map[string]any
	if len(args) > 0 {
		_ = json.Unmarshal(args, &m)
	}
	return p.Call(ctx, name, m)
}

type callArgs map[string]any

func (a callArgs) str(k string) string { s, _ := a[k].(string); return s }
func (a callArgs) yes(k string) bool   { b, _ := a[k].(bool); return b }

// expected is the expectedVersion argument, nil when absent. do_action's
// schema lists it (its description is there, once); like offerId in the
// reference system, every other firing tool accepts it unlisted, so the
// per-journey tools do not each grow by it.
func (a callArgs) expected() *int64 {
	if n, ok := a.num("expectedVersion"); ok {
		return &n
	}
	return nil
}

// fireArgs are the arguments of a firing call (do_action, a journey's
// step), read once where the call comes in.
type fireArgs struct {
	action   string // do_action's; a journey names its step itself
	input    any
	instance string
	confirm  bool
	decline  bool
	expected *int64
}

func (a callArgs) fire() fireArgs {
	return fireArgs{action: a.str("action"), input: a["input"], instance: a.str("instance"), confirm: a.yes("confirm"),
		decline: a.yes("decline"), expected: a.expected()}
}

func (a callArgs) num(k string) (int64, bool) {
	switch v := a[k].(type) {
	case float64:
		return int64(v), true
	case int:
		return int64(v), true
	case int64:
		return v, true
	case json.Number:
		n, err := v.Int64()
		return n, err == nil
	}
	return 0, false
}

// callRefusal refuses a call the port cannot route to a tool, or one a
// defect in host code ended.
type callRefusal struct {
	verdict
	Defect string   `json:"defect,omitempty"`
	Tools  []string `json:"tools,omitempty"`
}

// WhenSettled waits until a fire comes to rest and returns its settlement,
// for a caller holding only the port (it is the session's SettlementOf).
// An id no settlement can exist for is refused at once.
func (p *Port) WhenSettled(ctx context.Context, transitionID string) (journey.Settlement, error) {
	return p.s.SettlementOf(ctx, transitionID)
}

// SettledAnswer is the same truth as did_it_work's settled arm, without
// that tool's envelope (ok, judgment, settled, did, youAreOn, version): the
// facts for a fire at rest and true; false while it is still in flight (no
// answer yet, never a guessed one); and an error, at once, for an id no
// settlement can exist for, or one that names both a fire and an ask.
func (p *Port) SettledAnswer(transitionID string) (CallResult, bool, error) {
	st, done, err := p.s.View().SettlementIfKnown(transitionID)
	if err != nil {
		return CallResult{}, false, err
	}
	if _, isAsk := p.s.Asks().Get(transitionID); isAsk {
		return CallResult{}, false, &journey.Error{Reason: "AMBIGUOUS_ID", Msg: ambiguousID, Value: transitionID}
	}
	if !done {
		return CallResult{}, false, nil
	}
	return resultOf(settlements{p.s}.settledFacts(st)), true, nil
}

// Share makes the port serve every answer whole from now on, as
// Options.Repeat does: what it says once assumes one conversation, whose
// model read it the first time. A server that finds a second conversation
// on one port (journeymcp.NewServer over HTTP) calls it before answering
// that conversation. Nor does whats_here read sinceVersion from then on:
// the look a delta would start from may have been another model's. It
// cannot be undone.
func (p *Port) Share() {
	p.told.share()
	p.looks.shared.Store(true)
}

// Undelivered tells the port that r, an answer it gave, never reached the
// model: its client gave up on the call, or left, before the answer was
// sent. What r said for the first time is said again by the next answer
// that needs it, the next journey answer lists its later steps whole,
// and the next brief is given, so nothing is counted as heard that was
// not. Nor is r the model's last look: the next answer flags what others
// changed since the look before it (staleReads, staleWrites). An answer
// that may have been delivered costs only a repetition.
func (p *Port) Undelivered(r CallResult) {
	p.told.forget(r)
	p.looks.unsaw(r)
}
