package agent

import (
	"encoding/json"
	"errors"
)

// Reply is what an adapter tells the calling agent about one invocation,
// whatever the protocol: the one mapping from a dispatch's result or error
// to the agent-facing text, the data beside it, and whether the failure is
// the application's. MCP, WebMCP, A2A and Agent Native all answer from a
// Reply, so an agent is told the same thing the same way on every route.
//
// Build one with ReplyTo. The zero Reply is not meaningful.
type Reply struct {
	// OK is false when the invocation was refused, ended in a defect, or
	// its completion contract reported failure.
	OK bool
	// Text is the authored sentence for the agent: Summarize's wording
	// for a dispatched invocation, the refusal's message, or, for a
	// defect, a generic sentence that names only the capability. It never
	// holds Model data, input or a cause.
	Text string
	// Tag is the protocol tag of the error the invocation ended with
	// (TagUnavailable, TagDefect, ...), or "" when it was dispatched.
	Tag string
	// Data is the JSON an adapter sends as structured data beside Text:
	// the Result for a dispatched invocation, with the completing Message
	// as completion.message and what the call changed as changed; the error's encoding ({"_tag", "message",
	// ...}, never a cause) otherwise. ReplySchema gives its schema. Values
	// (what the application produced, where an input went wrong) ride
	// here, never in Text.
	Data json.RawMessage
	// Defect is true when the failure is in the application (a panic or
	// error in a hook, the host or a projection) or is not one of this
	// package's errors at all. An adapter logs Err for the application;
	// the agent sees only the generic Text.
	//
	// Defect is also true, with OK, when the work completed but the
	// completing Message could not be encoded (or broke its own schema):
	// the agent is told the work completed, and Data carries the Result
	// without completion.message, since repeating the call could do the
	// work twice.
	Defect bool
	// Unknown is true when no capability has the name that was asked for.
	// Protocols that have their own answer for an unknown tool or method
	// (MCP's -32602) use it; the others send Text like any refusal.
	Unknown bool
	// Err is the error dispatch returned, for the application's logs. It
	// is nil when the invocation was dispatched, unless the completing
	// Message could not be encoded (see Defect).
	Err error
	// Result is the dispatch's result when Err is nil.
	Result Result
	// Version is the version of the Model the answer was taken at, for
	// adapters to carry beside it: the Result's for a dispatched call (the
	// version its Message made), or, for a stale-view refusal, the current
	// version it names, where the caller reads again. Other refusals read
	// nothing: 0, as on an unversioned host.
	Version uint64
}

// ReplyTo maps what a dispatch returned to what the agent is told.
// capability is the name the caller asked for: a defect that is not one of
// this package's errors is reported under it.
//
//	res, err := rt.DispatchUnknown(ctx, name, args, agent.Invocation{Transport: agent.MCP})
//	reply := agent.ReplyTo(name, res, err)
//	if reply.Defect {
//		logger.Error("capability failed", "capability", name, "err", reply.Err)
//	}
//	send(reply.OK, reply.Text, reply.Data)
func ReplyTo(capability string, res Result, err error) Reply {
	r := replyTo(capability, res, err)
	r.Version = answerVersion(res, err)
	return r
}

// answerVersion is Reply.Version.
func answerVersion(res Result, err error) uint64 {
	if err == nil {
		return res.Version
	}
	if stale, ok := errors.AsType[*StaleViewError](err); ok {
		return stale.Version
	}
	return 0
}

func replyTo(capability string, res Result, err error) Reply {
	if err == nil {
		ok, text := Summarize(res)
		data, encErr := json.Marshal(res)
		if encErr == nil {
			return Reply{OK: ok, Text: text, Data: data, Result: res}
		}
		// A Result is this package's data; only the completing Message
		// can fail to encode. The work is done all the same: say so, and
		// withhold the Message.
		if c := res.Completion; c != nil {
			withheld := *c
			withheld.withheld = true
			shown := res
			shown.Completion = &withheld
			if data, err := json.Marshal(shown); err == nil {
				return Reply{
					OK: ok, Text: text, Data: data, Result: res, Defect: true,
					Err: &DefectError{Capability: res.Capability, Stage: "completion", Cause: encErr},
				}
			}
		}
		return defectReply(capability, encErr)
	}
	if defect, ok := errors.AsType[*DefectError](err); ok {
		r := defectReply(defect.Capability, err)
		return r
	}
	if projection, ok := errors.AsType[*ProjectionError](err); ok {
		// A defect with its own tag: its message is already generic.
		data, _ := json.Marshal(projection) // cannot fail: strings only
		return Reply{Text: projection.Error(), Tag: TagProjection, Data: data, Defect: true, Err: err}
	}
	refusal, ok := errors.AsType[Error](err)
	if !ok {
		return defectReply(capability, err)
	}
	data, encErr := json.Marshal(refusal)
	if encErr != nil {
		return defectReply(capability, err)
	}
	_, unknown := errors.AsType[*UnknownCapabilityError](err)
	return Reply{
		Text:    refusal.Error(),
		Tag:     refusal.Tag(),
		Data:    data,
		Unknown: unknown,
		Err:     err,
	}
}

// defectReply is the generic failure: it names the capability and nothing
// else, so no application detail reaches the agent.
func defectReply(capability string, err error) Reply {
	generic := &DefectError{Capability: capability}
	data, _ := json.Marshal(generic) // a DefectError's encoding cannot fail
	return Reply{Text: generic.Error(), Tag: TagDefect, Data: data, Defect: true, Err: err}
}

// ReplySchema returns the JSON Schema of the Data of every Reply about the
// capability d describes: either its Result, {"capability", "tag",
// "invocation", "completion"}, whose completion (present exactly when d
// declares a completion contract) carries the completing Message as
// "message", described by the schema that Message's type derives; or a
// refusal, {"_tag", "message", ...}. Adapters advertise it as the tool's
// output schema (MCP's outputSchema), so a client can check what it
// receives and a model knows in advance where the created todo's id will
// be. The root is an object schema, as MCP requires; objects are left
// open to members added later. It has no "type" lists: a Message field
// that may be null is an anyOf of null and its type, which says the same
// and which strict clients accept. The Result's "changed" (Change) is left
// to the open object rather than described in every tool's schema: its
// shape is the same for every capability.
func ReplySchema(d Descriptor) json.RawMessage {
	str := map[string]any{"type": "string"}
	constant := func(v string) map[string]any { return map[string]any{"type": "string", "const": v} }
	props := map[string]any{
		"capability": constant(d.Name),
		"tag":        constant(d.Tag),
		"invocation": map[string]any{
			"type":       "object",
			"properties": map[string]any{"id": str, "transport": str},
			"required":   []string{"id", "transport"},
		},
		// The version of the Model after the call: absent on an
		// unversioned host.
		"version": map[string]any{"type": "integer", "minimum": 1},
	}
	if len(d.Watches) > 0 {
		// The watches that moved when the policy let the call proceed.
		props["moved"] = map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": d.Watches}}
	}
	required := []string{"capability", "tag", "invocation"}
	if cd := d.Completion; cd != nil {
		props["completion"] = completionSchema(cd)
		required = append(required, "completion")
	}
	result := map[string]any{"type": "object", "properties": props, "required": required}
	refusal := map[string]any{
		"type":       "object",
		"properties": map[string]any{"_tag": str, "message": str},
		"required":   []string{"_tag", "message"},
	}
	b, err := json.Marshal(map[string]any{"type": "object", "anyOf": []any{result, refusal}})
	if err != nil {
		// Every part is a map of strings or a schema already encoded.
		panic("agent: ReplySchema: " + err.Error())
	}
	// No type lists: what the Messages' schemas say, said portably.
	return portableSchema(b)
}

// completionSchema is the schema of a Result's completion under cd: one
// alternative per Message it can end on, or the bare status of a
// contract on state.
func completionSchema(cd *CompletionDescriptor) map[string]any {
	status := func(s CompletionStatus) map[string]any { return map[string]any{"type": "string", "const": string(s)} }
	if cd.State {
		return map[string]any{
			"type":       "object",
			"properties": map[string]any{"status": status(Completed)},
			"required":   []string{"status"},
		}
	}
	var alts []any
	add := func(tags []string, st CompletionStatus) {
		for _, tag := range tags {
			message := json.RawMessage("{}")
			if s, ok := cd.Schemas[tag]; ok && len(s) > 0 {
				message = s
			}
			alts = append(alts, map[string]any{
				"type": "object",
				"properties": map[string]any{
					"status":  status(st),
					"tag":     map[string]any{"type": "string", "const": tag},
					"message": message,
				},
				// message is absent only when the application's Message
				// could not be encoded (see Reply.Defect).
				"required": []string{"status", "tag"},
			})
		}
	}
	add(cd.Success, Completed)
	add(cd.Failure, Failed)
	if len(alts) == 1 {
		return alts[0].(map[string]any)
	}
	return map[string]any{"anyOf": alts}
}
