package webmcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/foldagent/foldagent/agent"
)

// execute answers one tool call. It delegates to the runtime's checked
// dispatch path with transport webmcp and the call's context as
// cancellation, and never fails: the agent reads agent.ReplyTo's text (a
// refusal's message, a generic failure naming only the capability for a
// defect, whose detail goes to OnError, or the Summarize text), as an
// error whenever the reply is not ok, with the reply's data (the result
// and its completing Message, or the refusal's details) as structured
// content.
func (r *Registration) execute(ctx context.Context, name string, input json.RawMessage) (out ToolResult) {
	defer func() {
		if v := recover(); v != nil {
			r.report(fmt.Errorf("webmcp: answering %q panicked: %v", name, v))
			out = failedUnexpectedly(name)
		}
	}()
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	res, err := r.agent.DispatchUnknown(r.withCaller(ctx), name, input, agent.Invocation{ID: r.newID(), Transport: agent.WebMCP})
	reply := agent.ReplyTo(name, res, err)
	if reply.Defect {
		r.report(fmt.Errorf("webmcp: %q: %w", name, reply.Err))
	}
	out = textResult(reply.Text, !reply.OK)
	if !reply.Defect || reply.OK {
		out.StructuredContent = reply.Data
	}
	if v := reply.Version; v != 0 {
		out.Meta = map[string]any{MetaVersion: v}
	}
	return out
}

// failedUnexpectedly is the generic failure: it names the capability and
// nothing else, so no application detail reaches the agent.
func failedUnexpectedly(name string) ToolResult {
	return textResult(agent.ReplyTo(name, agent.Result{}, &agent.DefectError{Capability: name}).Text, true)
}

// answerForm answers an agent's submission of form as the tool call would
// be answered: the text of each field the capability's input names
// becomes a string property of the payload (a field the page did not
// supply is left out, for decode to judge), then the call goes through
// execute.
func (r *Registration) answerForm(ctx context.Context, form *Form, fields map[string]string) ToolResult {
	if form == nil || r.forms[form.name] != form {
		name := "<nil>"
		if form != nil {
			name = form.name
		}
		return textResult((&agent.UnknownCapabilityError{Capability: name}).Error(), true)
	}
	payload := make(map[string]string, len(form.fields))
	for _, f := range form.fields {
		if v, ok := fields[f.key]; ok {
			payload[f.key] = v
		}
	}
	raw, err := json.Marshal(payload)
	if err != nil { // unreachable for a map of strings; kept honest
		r.report(err)
		return failedUnexpectedly(form.name)
	}
	return r.execute(ctx, form.name, raw)
}
