package mcpagent

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"weak"

	"github.com/foldagent/foldagent/agent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolSet is one contract's tools, built once and shared by every Server
// of that contract: the SDK keeps a *mcp.Tool it is given as is, so a
// thousand sessions of one contract hold one copy of each tool, schemas
// included, instead of a thousand. A toolSet is never changed once
// published.
type toolSet struct {
	tools map[string]*mcp.Tool
	index map[string]int
	marks []toolMark
}

// toolMark identifies one capability's descriptor: its name, its
// description and the bytes of its input schema by address. A contract's
// Describe hands out the same schema bytes every time (its descriptors
// are made once, by Make), so two descriptions with the same marks come
// from the same capabilities; the toolSet holds those bytes alive, so
// while it lives no other schema can take their address.
type toolMark struct {
	name, description string
	schema            *byte
	size              int
}

func markOf(d agent.Descriptor) toolMark {
	m := toolMark{name: d.Name, description: d.Description, size: len(d.InputSchema)}
	if len(d.InputSchema) > 0 {
		m.schema = &d.InputSchema[0]
	}
	return m
}

func (ts *toolSet) matches(d agent.Description) bool {
	if len(ts.marks) != len(d.Capabilities) {
		return false
	}
	for i, c := range d.Capabilities {
		if markOf(c) != ts.marks[i] {
			return false
		}
	}
	return true
}

// toolCache finds the toolSet of a contract by the address of its first
// capability's schema. It holds toolSets weakly: a contract no Server uses
// any more is forgotten with its last Server.
var toolCache struct {
	mu sync.Mutex
	m  map[*byte]weak.Pointer[toolSet]
}

// cacheKey returns the key d's tools are cached under, or nil when they
// are not cached (a contract with no capabilities has nothing to share).
func cacheKey(d agent.Description) *byte {
	if len(d.Capabilities) == 0 {
		return nil
	}
	return markOf(d.Capabilities[0]).schema
}

// sharedTools returns the toolSet already built for d's contract, or nil.
func sharedTools(d agent.Description) *toolSet {
	key := cacheKey(d)
	if key == nil {
		return nil
	}
	toolCache.mu.Lock()
	defer toolCache.mu.Unlock()
	if ts := toolCache.m[key].Value(); ts != nil && ts.matches(d) {
		return ts
	}
	return nil
}

// shareTools publishes the tools a Server built for d, for the next
// Server of the same contract, and returns them as a toolSet. The maps
// must not be changed afterwards.
func shareTools(d agent.Description, tools map[string]*mcp.Tool, index map[string]int) *toolSet {
	ts := &toolSet{tools: tools, index: index, marks: make([]toolMark, len(d.Capabilities))}
	for i, c := range d.Capabilities {
		ts.marks[i] = markOf(c)
	}
	key := cacheKey(d)
	if key == nil {
		return ts
	}
	toolCache.mu.Lock()
	defer toolCache.mu.Unlock()
	if old := toolCache.m[key].Value(); old != nil && old.matches(d) {
		return old // another Server published the same contract first
	}
	if toolCache.m == nil {
		toolCache.m = make(map[*byte]weak.Pointer[toolSet])
	}
	toolCache.m[key] = weak.Make(ts)
	runtime.AddCleanup(ts, forgetTools, key)
	return ts
}

// forgetTools drops a collected toolSet's entry, unless another has taken
// its place.
func forgetTools(key *byte) {
	toolCache.mu.Lock()
	defer toolCache.mu.Unlock()
	if wp, ok := toolCache.m[key]; ok && wp.Value() == nil {
		delete(toolCache.m, key)
	}
}

// objectSchema is the output schema of a tool whose results carry nothing
// of the capability's own: an object, the Result's envelope.
var objectSchema = json.RawMessage(`{"type":"object"}`)

// outputSchema is the outputSchema of d's tool: agent.ReplySchema less
// the envelope every result repeats and carries itself (capability, tag,
// invocation, version: the same members for every tool, their values in
// each result). What stays is what d's results carry of their own: the
// completion, one alternative per Message the call can end on with that
// Message's schema (so a model knows in advance where a created record's
// id will be), and the watches that may have moved. A result with a
// completion and a refusal ({"_tag", "message", ...}) remain told apart.
// A capability with neither is {"type":"object"}. A tool list is most of
// what a model reads of a small task; the envelope was two thirds of it.
func outputSchema(d agent.Descriptor) (json.RawMessage, error) {
	var full struct {
		AnyOf []struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"anyOf"`
	}
	if err := json.Unmarshal(agent.ReplySchema(d), &full); err != nil || len(full.AnyOf) == 0 {
		return nil, fmt.Errorf("the reply schema of %q has no result alternative: %v", d.Name, err)
	}
	own := map[string]json.RawMessage{}
	for _, k := range []string{"completion", "moved"} {
		if p, ok := full.AnyOf[0].Properties[k]; ok {
			own[k] = p
		}
	}
	var schema any
	switch {
	case len(own) == 0:
		return objectSchema, nil
	case own["completion"] == nil:
		schema = map[string]any{"type": "object", "properties": own}
	default:
		schema = map[string]any{"type": "object", "anyOf": []any{
			map[string]any{"properties": own, "required": []string{"completion"}},
			map[string]any{"required": []string{"_tag", "message"}},
		}}
	}
	return json.Marshal(schema)
}
