package webmcp

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/foldagent/foldagent/agent"
)

// Runtime is what this package needs from a bound runtime: agent.Served,
// the one non-generic face of *agent.Runtime every adapter takes, which
// keeps this package free of type parameters. Of it, a Registration reads
// the capabilities the current Model offers (Offered, as its page's look),
// hears that the Model changed (Subscribe), and calls through the checked
// dispatch path (DispatchUnknown).
type Runtime = agent.Served

// ModelContext is the browser's producer surface for tools: in a page,
// document.modelContext (see PageModelContext). It is the only
// browser-specific seam this package has; tests pass a stand-in.
type ModelContext interface {
	// RegisterTool offers tool to the browser and returns once the
	// browser has accepted it, with the function that withdraws it, or
	// refused it, with an error. unregister is the registration's abort
	// signal: it must take the tool off the browser's list before it
	// returns, and is called at most once. It is distinct from the
	// context an execution receives, which ends one call.
	//
	// ctx bounds only the wait for the browser's answer: when it ends
	// first, the registration is abandoned (aborted) and RegisterTool
	// returns an error.
	RegisterTool(ctx context.Context, tool Tool) (unregister func(), err error)
}

// FormContext is implemented by a ModelContext whose page can also submit
// forms on an agent's behalf (WebMCP's declarative tools). Register uses
// it when Options.Forms is given.
type FormContext interface {
	ModelContext
	// DeclarativeTools reports whether the browser derives tools from
	// annotated forms itself (SubmitEvent.agentInvoked exists). When it
	// does, a form's capability is not also registered imperatively,
	// since the form already is the tool.
	DeclarativeTools() bool
	// AnswerForms starts answering the agent-invoked submissions of
	// forms: for each, the page reads the text of every field the form
	// names (Form.Fields), keeps the submission from the application's
	// own handlers, calls answer, and hands its result back to the
	// browser. A person's submission, or one of another form, is left
	// alone. The returned function stops listening.
	AnswerForms(forms []*Form, answer func(ctx context.Context, form *Form, fields map[string]string) ToolResult) (stop func())
}

// Tool is one capability as the browser sees it.
type Tool struct {
	// Name is the capability's protocol name.
	Name string `json:"name"`
	// Description is the capability's authored description.
	Description string `json:"description"`
	// InputSchema is the JSON Schema of the capability's wire input.
	InputSchema json.RawMessage `json:"inputSchema"`
	// Annotations are the hints a browser's agent uses to decide how
	// careful to be, from what the capability declares; nil when it
	// declares nothing.
	Annotations *Annotations `json:"annotations,omitempty"`
	// ExposedTo is the registration's exposedTo option (Options.ExposedTo):
	// the other origins in the page's frame tree the tool is offered to.
	// It is passed beside the tool, not in it.
	ExposedTo []string `json:"-"`
	// Execute runs one call of the tool with the agent's JSON input. ctx
	// ends when the browser cancels the call. Execute never fails: every
	// outcome, refusals included, is a ToolResult.
	Execute func(ctx context.Context, input json.RawMessage) ToolResult `json:"-"`
}

// Annotations are WebMCP's tool annotations that a contract can declare.
type Annotations struct {
	// ReadOnlyHint says the tool changes nothing (agent.Variant.ReadOnly).
	ReadOnlyHint bool `json:"readOnlyHint,omitempty"`
	// ConsequentialHint says the tool's effect is significant or cannot
	// be undone: the capability is destructive (agent.Variant.Destructive)
	// or the person must approve its calls (agent.Approval). WebMCP has no
	// annotation of its own for an approval; a call the contract has the
	// person approve is, by that declaration, consequential.
	ConsequentialHint bool `json:"consequentialHint,omitempty"`
}

// annotationsOf returns the annotations a descriptor declares, or nil.
func annotationsOf(d agent.Descriptor) *Annotations {
	consequential := d.Destructive || d.NeedsApproval
	if !d.ReadOnly && !consequential {
		return nil
	}
	return &Annotations{ReadOnlyHint: d.ReadOnly, ConsequentialHint: consequential}
}

// ToolResult is what a tool call answers, in the shape WebMCP and MCP
// share: text content, the data beside it, and IsError for an outcome the
// agent should treat as a failure.
type ToolResult struct {
	Content []Content `json:"content"`
	// StructuredContent is agent.ReplyTo's data: the Result, with the
	// Message that completed the work (the created record, with its id),
	// or the refusal with what to correct. Values ride here, never in the
	// text. It is absent for a defect.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
	// Meta is the result's _meta: the version of the Model the result was
	// taken at, under MetaVersion, on a versioned host (see looks.go).
	// Nil when there is nothing to say.
	Meta map[string]any `json:"_meta,omitempty"`
}

// Content is one piece of a ToolResult. This package only writes text.
type Content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// Text returns the concatenated text of the result's content.
func (r ToolResult) Text() string {
	var s string
	for _, c := range r.Content {
		s += c.Text
	}
	return s
}

func textResult(text string, isError bool) ToolResult {
	return ToolResult{Content: []Content{{Type: "text", Text: text}}, IsError: isError}
}

// Options configure Register. Runtime is required; the rest have working
// zero values.
type Options struct {
	// Runtime is the bound runtime whose capabilities become tools.
	Runtime Runtime
	// ModelContext is the surface to register against. Nil uses
	// PageModelContext(); Register fails when there is none.
	ModelContext ModelContext
	// WithoutFollowingModel registers once and reconciles only on
	// Refresh. By default the registered tools are reconciled after every
	// Model change, so the tool list follows availability.
	WithoutFollowingModel bool
	// InvocationID supplies the id of each tool call. Nil uses
	// agent.NewInvocationID.
	InvocationID func() string
	// OnError receives failures of reconciliations nobody waits for (the
	// first one, and those a Model change starts), and defects while
	// answering a call, with their detail, for the application's logs.
	// Nil drops them.
	OnError func(err error)
	// ExposedTo lists the origins, besides the page's own, whose documents
	// in the page's frame tree may see and call the tools: WebMCP's
	// registerTool exposedTo option. Each must be an https origin, or an
	// http one on a loopback host (what a browser treats as potentially
	// trustworthy); Register refuses any other. Nil exposes the tools to
	// the page's own origin and the browser's agent only.
	ExposedTo []string
	// Forms are capabilities drawn as declarative forms (see FormTool).
	// Agent submissions of these forms are answered as tool calls, and in
	// a browser with declarative tools their capabilities are not also
	// registered imperatively. The ModelContext must implement
	// FormContext.
	//
	// A declarative tool exists while its form is in the page, so the
	// view decides when the agent sees it: render the form only while
	// the capability is available. The runtime still refuses a
	// submission the Model does not allow.
	Forms []*Form
}

// ErrNoModelContext is returned by Register when no model context was
// given and the page has none.
var ErrNoModelContext = errors.New("webmcp: no model context: the page has neither document.modelContext nor navigator.modelContext; pass Options.ModelContext to register against another one")

// ErrUnregistered is returned by Refresh once the registration has been
// unregistered: nothing will be registered again.
var ErrUnregistered = errors.New("webmcp: the registration was unregistered")
