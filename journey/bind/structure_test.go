package bind

import (
	"testing"

	"github.com/foldagent/foldagent/internal/structure"
)

// The binding keeps the shape issue 37 asks of the journey tree: no helper
// named for a lock (its state is parts that own their locks, and a Model
// change is applied with none held, follow.go), no function over 80 lines
// and no type over 40 methods.
func TestPackageStructure(t *testing.T) {
	if methods := structure.Check(t, ".", 40, 80); methods["Journey"] == 0 {
		t.Fatalf("methods %v: the Journey was not read", methods)
	}
}
