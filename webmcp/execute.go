package webmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/foldagent/foldagent/agent"
)

// execute answers one tool call. It delegates to the runtime's checked
// dispatch path with transport webmcp and the call's context as
// cancellation, and never fails: a refusal becomes a tool error carrying
// the refusal's agent-facing message; a defect, or anything that is not
// one of the agent package's refusals, becomes a generic failure naming
// only the capability, its detail going to OnError; a dispatch becomes the
// Summarize text, an error when its completion reported failure.
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
	res, err := r.agent.DispatchUnknown(ctx, name, input, agent.Invocation{ID: r.newID(), Transport: agent.WebMCP})
	if err != nil {
		return r.errorResult(name, err)
	}
	ok, text := agent.Summarize(res)
	return textResult(text, !ok)
}

// errorResult maps an error from dispatch to the result the agent reads.
func (r *Registration) errorResult(name string, err error) ToolResult {
	var defect *agent.DefectError
	if errors.As(err, &defect) {
		r.report(err)
		return failedUnexpectedly(name)
	}
	var refusal agent.Error
	if errors.As(err, &refusal) {
		return textResult(refusal.Error(), true)
	}
	r.report(fmt.Errorf("webmcp: %q: %w", name, err))
	return failedUnexpectedly(name)
}

// failedUnexpectedly is the generic failure: it names the capability and
// nothing else, so no application detail reaches the agent.
func failedUnexpectedly(name string) ToolResult {
	return textResult((&agent.DefectError{Capability: name}).Error(), true)
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
