package mcpagent

import (
	"fmt"

	"github.com/foldagent/foldagent/agent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolList is what a Server lists with the SDK: one prebuilt tool per
// capability, and the names registered now, kept equal to the
// capabilities offered. The Server's toolMu guards it.
type toolList struct {
	// tools holds one prebuilt tool per capability, by name; index gives
	// each name's position in declaration order. Both are shared with
	// every Server of the same contract (shared keeps them alive) and
	// never changed.
	tools  map[string]*mcp.Tool
	index  map[string]int
	shared *toolSet

	advertised []string // names registered with the SDK, declaration order
	spare      []string // the other buffer, reused on each change
	seen       *offer   // with a Feed: the last offer applied
	// changes counts the reconciliations that changed the SDK's tool set.
	// The SDK debounces its list_changed notices by time, so a client may
	// hear of one change once or twice; this counts the changes
	// themselves (tests read it).
	changes uint64
}

// build makes one tool per capability, or takes those another Server of
// the same contract made already.
func (l *toolList) build(desc agent.Description) error {
	if l.shared = sharedTools(desc); l.shared != nil {
		l.tools, l.index = l.shared.tools, l.shared.index
		return nil
	}
	tools, index := make(map[string]*mcp.Tool), make(map[string]int)
	for i, d := range desc.Capabilities {
		if err := checkObjectSchema(d.InputSchema); err != nil {
			return fmt.Errorf("mcpagent: capability %q cannot be a tool: %w", d.Name, err)
		}
		out, err := outputSchema(d)
		if err != nil {
			return fmt.Errorf("mcpagent: capability %q cannot be a tool: %w", d.Name, err)
		}
		tools[d.Name] = &mcp.Tool{
			Name:        d.Name,
			Description: d.Description,
			InputSchema: d.InputSchema,
			// What structuredContent holds, for a result and for a
			// refusal alike: a client checks every result against it.
			OutputSchema: out,
			Annotations:  annotations(d),
		}
		index[d.Name] = i
	}
	l.shared = shareTools(desc, tools, index)
	l.tools, l.index = l.shared.tools, l.shared.index
	return nil
}

// known reports whether name is one of the contract's tools.
func (l *toolList) known(name string) bool {
	_, ok := l.tools[name]
	return ok
}

// reconcile adds to srv and removes from it the tools that differ between
// avail and what is advertised, each added one served by h.
func (l *toolList) reconcile(srv *mcp.Server, h mcp.ToolHandler, avail []agent.Descriptor) {
	if sameNames(avail, l.advertised) {
		return
	}
	l.changes++
	var removed []string
	var added []*mcp.Tool
	adv := l.advertised
	i, j := 0, 0
	for i < len(adv) || j < len(avail) {
		switch {
		case j == len(avail):
			removed = append(removed, adv[i])
			i++
		case i == len(adv):
			added = l.appendTool(added, avail[j].Name)
			j++
		case adv[i] == avail[j].Name:
			i++
			j++
		case l.index[adv[i]] < l.index[avail[j].Name]:
			removed = append(removed, adv[i])
			i++
		default:
			added = l.appendTool(added, avail[j].Name)
			j++
		}
	}
	next := l.spare[:0]
	for _, d := range avail {
		next = append(next, d.Name) // every available name is one of List's
	}
	l.spare, l.advertised = l.advertised, next
	if len(removed) > 0 {
		srv.RemoveTools(removed...)
	}
	for _, t := range added {
		srv.AddTool(t, h)
	}
}

// listAll registers every capability of the contract with srv, in
// declaration order, for a static Server.
func (l *toolList) listAll(srv *mcp.Server, h mcp.ToolHandler, desc agent.Description) {
	for _, d := range desc.Capabilities {
		if t, ok := l.tools[d.Name]; ok {
			srv.AddTool(t, h)
			l.advertised = append(l.advertised, d.Name)
		}
	}
}

func (l *toolList) appendTool(added []*mcp.Tool, name string) []*mcp.Tool {
	if t, ok := l.tools[name]; ok {
		return append(added, t)
	}
	return added
}

func sameNames(avail []agent.Descriptor, names []string) bool {
	if len(avail) != len(names) {
		return false
	}
	for i := range avail {
		if avail[i].Name != names[i] {
			return false
		}
	}
	return true
}
