package mcpagent

import (
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
