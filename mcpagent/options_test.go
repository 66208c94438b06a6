package mcpagent_test

import (
	"testing"

	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A nil Implementation, or an empty field in one, takes the default for
// that field alone (as journeymcp's does), and the caller's value is left
// as it was. The default names the application the adapter runs in, not
// the library: here, the test binary of package mcpagent.
func TestImplementationDefaultsFillEmptyFields(t *testing.T) {
	_, cs := connect(t, fakeRuntime{}, nil, nil)
	if info := cs.InitializeResult().ServerInfo; info.Name != "mcpagent" || info.Version != "0.1.0" {
		t.Fatalf("default server info %+v, want the application's name", info)
	}
	impl := &mcp.Implementation{Name: "todo", Title: "Todo"}
	_, cs = connect(t, fakeRuntime{}, &mcpagent.Options{Implementation: impl}, nil)
	if info := cs.InitializeResult().ServerInfo; info.Name != "todo" || info.Title != "Todo" || info.Version != "0.1.0" {
		t.Fatalf("server info %+v, want the given name and title and the default version", info)
	}
	if impl.Version != "" {
		t.Fatalf("the caller's Implementation was changed: %+v", impl)
	}
}
