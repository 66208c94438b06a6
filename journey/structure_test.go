package journey

import (
	"testing"

	"github.com/foldagent/foldagent/internal/structure"
)

// The package keeps the shape issue 37 gave it: no type with more than
// 40 methods (the session is a coordinator; reads are on View, the ask
// book on AskBook, the state and its rules on fold and its parts), no
// function over 80 lines, and no helper named for the lock (every method
// of fold runs under it by construction). No type embeds another with
// methods, so the declared methods are the whole method set.
func TestPackageStructure(t *testing.T) {
	methods := structure.Check(t, ".", 40, 80)
	if methods["Session"] == 0 || methods["View"] == 0 {
		t.Fatalf("methods %v: the session and its view were not read", methods)
	}
}
