package fixed

import (
	"testing"

	"github.com/foldagent/foldagent/internal/structure"
)

// The port keeps the shape issue 37 asks of the journey tree: Port is a
// coordinator over parts of its own (told, toolSet, lookBook,
// settlements), no type over 40 methods, no function over 80 lines, no
// helper named for a lock.
func TestPackageStructure(t *testing.T) {
	if methods := structure.Check(t, ".", 40, 80); methods["Port"] == 0 {
		t.Fatalf("methods %v: the Port was not read", methods)
	}
}
