package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/devtools/registry"
)

// attacher keeps the MCP server's tools those of the newest live
// application of the project, looking at the registry again before each
// tools/list and tools/call.
type attacher struct {
	project, registry string
	logger            *log.Logger
	server            *mcp.Server

	mu     sync.Mutex
	cur    *upstream         // nil when attached to nothing
	why    error             // why cur is nil
	tools  map[string]string // the application tools served: name → definition as JSON
	logged string            // the last attachment or failure logged, to log each once
}

func newAttacher(project, reg string, logger *log.Logger) *attacher {
	return &attacher{project: project, registry: reg, logger: logger, tools: map[string]string{},
		why: errors.New("not attached yet")}
}

// serve adds attached_app and the re-resolving middleware to server.
func (a *attacher) serve(server *mcp.Server) {
	a.server = server
	server.AddTool(statusTool, a.status)
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/list":
				a.refresh(ctx, true)
			case "tools/call":
				a.refresh(ctx, false)
			}
			return next(ctx, method, req)
		}
	})
}

// refresh attaches to the registry's newest live application of the
// project, unless attached to it already; relist lists its tools again
// even then. A failure is kept for the tools to answer.
func (a *attacher) refresh(ctx context.Context, relist bool) {
	e, err := registry.Newest(a.registry, a.project)
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		a.detach(err)
		return
	}
	if a.cur != nil && sameEntry(a.cur.entry, e) && !a.cur.broken.Load() {
		if relist {
			a.relist(ctx, a.cur)
		}
		return
	}
	a.detach(nil)
	up, tools, err := connect(ctx, e, a.listChanged)
	if err != nil {
		a.detach(err)
		return
	}
	a.cur = up
	a.note("attached to " + e.String())
	a.sync(tools)
}

// relist lists up's tools again and serves them; a.mu is held.
func (a *attacher) relist(ctx context.Context, up *upstream) {
	tools, err := up.list(ctx)
	if err != nil {
		up.broken.Store(true)
		a.note(err.Error())
		return
	}
	a.sync(tools)
}

// listChanged relists when the application attached says its tools
// changed.
func (a *attacher) listChanged(s *mcp.ClientSession) {
	go func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.cur != nil && a.cur.session == s {
			ctx, cancel := context.WithTimeout(context.Background(), connectWithin)
			defer cancel()
			a.relist(ctx, a.cur)
		}
	}()
}

// detach leaves the application attached, if any, keeping why; a.mu is
// held. The tools stay served, answering why.
func (a *attacher) detach(why error) {
	if a.cur != nil {
		go a.cur.session.Close() // an ended application may be slow to say so
		a.cur = nil
	}
	if why != nil {
		a.why = why
		a.note(why.Error())
	}
}

// note logs s unless it was the last thing logged.
func (a *attacher) note(s string) {
	if s != a.logged {
		a.logged = s
		a.logger.Print(s)
	}
}

// sync serves tools in place of the application tools served before,
// changing (and so notifying) only what differs; a.mu is held.
func (a *attacher) sync(tools []*mcp.Tool) {
	next := map[string]string{}
	for _, t := range tools {
		if t.Name == statusTool.Name {
			a.note(fmt.Sprintf("the app's tool %s is not served: the name is this command's own", t.Name))
			continue
		}
		def, err := json.Marshal(t)
		if err != nil {
			continue
		}
		next[t.Name] = string(def)
		if a.tools[t.Name] == string(def) {
			continue
		}
		if err := addTool(a.server, t, a.call); err != nil {
			delete(next, t.Name)
			a.note(fmt.Sprintf("the app's tool %s is not served: %v", t.Name, err))
		}
	}
	var gone []string
	for name := range a.tools {
		if _, ok := next[name]; !ok {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		a.server.RemoveTools(gone...)
	}
	a.tools = next
}

// addTool adds t to server, turning the SDK's panic on a tool it cannot
// serve (an input schema that is not an object) into an error.
func addTool(server *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	server.AddTool(t, h)
	return nil
}

// call passes a tools/call through to the application attached.
func (a *attacher) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a.mu.Lock()
	up, why := a.cur, a.why
	a.mu.Unlock()
	if up == nil {
		return toolError(why), nil
	}
	res, err := up.session.CallTool(ctx, &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
	if err == nil {
		return res, nil
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		return nil, err // the application's own answer
	}
	up.broken.Store(true)
	return toolError(failure(up.entry, up.auth, err)), nil
}

func (a *attacher) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur != nil {
		a.cur.session.Close()
		a.cur = nil
	}
}
