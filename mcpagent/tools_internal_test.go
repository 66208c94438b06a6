package mcpagent

import (
	"encoding/json"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

func TestServersOfOneContractShareTheirTools(t *testing.T) {
	rt := newFlipRuntime(5)
	a, err := NewServer(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := NewServer(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if a.tools.shared == nil || a.tools.shared != b.tools.shared || a.tools.tools["capability_0001"] != b.tools.tools["capability_0001"] {
		t.Fatal("two Servers of one contract built their tools twice")
	}

	// The same names and text over other schema bytes is another contract
	// as far as the cache can tell: it gets tools of its own.
	other := newFlipRuntime(5)
	for i := range other.list {
		other.list[i].InputSchema = json.RawMessage(string(other.list[i].InputSchema))
	}
	c, err := NewServer(other, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.tools.shared == a.tools.shared {
		t.Fatal("a contract with other schema bytes shared another's tools")
	}
	// A description that differs in one descriptor does not match.
	d := rt.Describe()
	d.Capabilities = append([]agent.Descriptor(nil), d.Capabilities...)
	d.Capabilities[2].Description = "Something else."
	if a.tools.shared.matches(d) {
		t.Fatal("a changed description matched the cached tools")
	}
}
