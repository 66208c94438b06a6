package agent_test

import (
	"regexp"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// NewInvocationID mints canonical, distinct version 4 UUIDs.
func TestNewInvocationIDIsAVersion4UUID(t *testing.T) {
	seen := make(map[string]bool, 1000)
	for range 1000 {
		id := agent.NewInvocationID()
		if !uuidV4.MatchString(id) {
			t.Fatalf("%q is not a canonical version 4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("%q minted twice", id)
		}
		seen[id] = true
	}
}

func BenchmarkNewInvocationID(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = agent.NewInvocationID()
	}
}
