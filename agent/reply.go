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
	// the Result for a dispatched invocation; the error's encoding
	// ({"_tag", "message", ...}, never a cause) otherwise.
	Data json.RawMessage
	// Defect is true when the failure is in the application (a panic or
	// error in a hook, the host or a projection) or is not one of this
	// package's errors at all. An adapter logs Err for the application;
	// the agent sees only the generic Text.
	Defect bool
	// Unknown is true when no capability has the name that was asked for.
	// Protocols that have their own answer for an unknown tool or method
	// (MCP's -32602) use it; the others send Text like any refusal.
	Unknown bool
	// Err is the error dispatch returned, for the application's logs. It
	// is nil when the invocation was dispatched.
	Err error
	// Result is the dispatch's result when Err is nil.
	Result Result
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
	if err == nil {
		ok, text := Summarize(res)
		data, encErr := json.Marshal(res)
		if encErr != nil {
			// A Result is this package's data; only a Completion's
			// Message could fail to encode, and it is not encoded.
			return defectReply(capability, encErr)
		}
		return Reply{OK: ok, Text: text, Data: data, Result: res}
	}
	var defect *DefectError
	if errors.As(err, &defect) {
		r := defectReply(defect.Capability, err)
		return r
	}
	var projection *ProjectionError
	if errors.As(err, &projection) {
		// A defect with its own tag: its message is already generic.
		data, _ := json.Marshal(projection) // cannot fail: strings only
		return Reply{Text: projection.Error(), Tag: TagProjection, Data: data, Defect: true, Err: err}
	}
	var refusal Error
	if !errors.As(err, &refusal) {
		return defectReply(capability, err)
	}
	data, encErr := json.Marshal(refusal)
	if encErr != nil {
		return defectReply(capability, err)
	}
	var unknown *UnknownCapabilityError
	return Reply{
		Text:    refusal.Error(),
		Tag:     refusal.Tag(),
		Data:    data,
		Unknown: errors.As(err, &unknown),
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
