//go:build foldagent_schematable

package schematable_test

import (
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/schematable"
)

type counter struct {
	N int `json:"n"`
}

type unlisted struct {
	Name string `json:"name"`
}

// Run with -tags foldagent_schematable: a declaration reads its schema
// from the table, and one whose type is missing fails naming the type.
func TestDeclarationsReadTheTable(t *testing.T) {
	const schema = `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`
	schematable.Install(map[string]schematable.Entry{
		"projected github.com/foldagent/foldagent/agent/schematable_test.counter": {Schema: []byte(schema)},
	})
	p := agent.Project(func(c counter) counter { return c })
	if got := string(p.Schema()); got != schema {
		t.Errorf("the projection advertises %s, want the table's %s", got, schema)
	}
	defer func() {
		v := recover()
		if msg, _ := v.(string); !strings.Contains(msg, "schematable_test.unlisted is not in this build's schema table") {
			t.Errorf("a type missing from the table panicked with %v", v)
		}
	}()
	agent.Project(func(c counter) unlisted { return unlisted{} })
	t.Error("a type missing from the table was declared")
}
