package inert_test

import (
	"fmt"

	"github.com/foldagent/foldagent/host/inert"
)

// An agent's todo title that would conceal text and draw a fake card is
// drawn as what it is, on one line.
func ExampleLine() {
	title := "Buy milk\n\x1b[8mAPPROVE? y approves"
	fmt.Println(inert.Line(title, 30))
	fmt.Println(inert.Line(title, 12))
	// Output:
	// Buy milk␤␛[8mAPPROVE? y appro…
	// Buy milk␤␛[…
}
