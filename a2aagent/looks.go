package a2aagent

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/citation"
)

// This file ties what an A2A caller was shown to what it calls (see
// agent.Watch and agent.WithCaller). Every read the agent serves (a
// message {"read": ...}, answered by a message) and every task's result
// is the caller's look, and the version of the Model it was taken at
// rides in the metadata of the agent's message under MetaVersion. A
// message calling a skill may cite the version it planned against in its
// own metadata under MetaSeenVersion; a cited version wins over the
// caller's last look.
//
// The caller is the A2A identity: the whole verified principal (user,
// scopes and claims) the bearer token names, as tasks and runtimes are
// keyed.

// Metadata keys this adapter reads and writes.
const (
	// MetaVersion is the metadata key under which the agent's message
	// (a task's status message, or a read's answer) carries the version of
	// the Model it was taken at (a JSON number), on a versioned host.
	MetaVersion = "foldagent/version"
	// MetaSeenVersion is the metadata key under which a message calling a
	// skill may cite the version it planned against (a JSON number a
	// MetaVersion gave).
	MetaSeenVersion = "foldagent/seenVersion"
)

// readCall is a message asking to read the application's state: the
// context ({"read": "context"}) or a resource ({"read": "resource",
// "name": <resource>}).
type readCall struct {
	resource string // "" for the context
}

// readRequest finds the first data part {"read": ...}.
func readRequest(m *a2a.Message) (*readCall, bool, error) {
	for _, part := range m.Parts {
		if part == nil {
			continue
		}
		d, ok := part.Content.(a2a.Data)
		if !ok {
			continue
		}
		obj, ok := d.Value.(map[string]any)
		if !ok {
			continue
		}
		what, present := obj["read"]
		if !present {
			continue
		}
		switch what {
		case "context":
			return &readCall{}, true, nil
		case "resource":
			if name, ok := obj["name"].(string); ok && name != "" {
				return &readCall{resource: name}, true, nil
			}
		}
		return nil, true, errBadRead
	}
	return nil, false, nil
}

var errBadRead = a2a.NewError(a2a.ErrInvalidParams, `A read names what it reads: {"read": "context"}, or {"read": "resource", "name": <resource name>}.`)

var errBadCitation = a2a.NewError(a2a.ErrInvalidParams, `The message's metadata "`+MetaSeenVersion+`" must be a positive whole number: a version a message's metadata "`+MetaVersion+`" gave.`)

// seenVersion reads the version a message cites, if any.
func seenVersion(meta map[string]any) (uint64, error) {
	raw, ok := meta[MetaSeenVersion]
	if !ok || raw == nil {
		return 0, nil
	}
	v, ok := citation.Version(raw)
	if !ok {
		return 0, errBadCitation
	}
	return v, nil
}

// callerKey is the caller a principal's identity key names.
func callerKey(identity string) string { return "a2a:identity:" + identity }

// setVersion records v in m's metadata, when it is one.
func setVersion(m *a2a.Message, v uint64) {
	if v != 0 {
		m.SetMeta(MetaVersion, v)
	}
}

// read serves a read message: one answer, a message (no task), whose
// data part is {"version", "value"} and whose metadata carries the
// version.
func (e *executor) read(ctx context.Context, ec *a2asrv.ExecutorContext, c *call, yield func(a2a.Event, error) bool) {
	ctx = agent.WithCaller(ctx, c.caller)
	var (
		read agent.Read
		err  error
	)
	if c.read.resource == "" {
		read, err = c.rt.ContextRead(ctx)
		if err == nil && read.Value == nil {
			yield(nil, a2a.NewError(a2a.ErrInvalidParams, "The application declares no context."))
			return
		}
	} else {
		read, err = c.rt.ResourceRead(ctx, c.read.resource)
	}
	if err != nil {
		var unknown *agent.ResourceError
		if errors.As(err, &unknown) {
			yield(nil, a2a.NewError(a2a.ErrInvalidParams, unknown.Error()))
			return
		}
		e.log.Error("a2aagent: a read failed", "resource", c.read.resource, "error", err)
		yield(nil, a2a.NewError(a2a.ErrInternalError, "The application's state could not be read."))
		return
	}
	var value any
	if err := json.Unmarshal(read.Value, &value); err != nil {
		e.log.Error("a2aagent: a read is not JSON", "resource", c.read.resource, "error", err)
		yield(nil, a2a.NewError(a2a.ErrInternalError, "The application's state could not be read."))
		return
	}
	text := "The application's context, in the data part."
	if c.read.resource != "" {
		text = "The resource, in the data part."
	}
	data := map[string]any{"value": value}
	if read.Version != 0 {
		data["version"] = read.Version
	}
	m := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(text), a2a.NewDataPart(data))
	m.ContextID = ec.ContextID
	setVersion(m, read.Version)
	yield(m, nil)
}
