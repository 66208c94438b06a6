package tsdrive_test

import (
	"fmt"

	"github.com/foldagent/foldagent/examples/bubbles/internal/tsdrive"
)

// What a text field keeps of the hostile text: its escape bytes are gone,
// so what is left of its sequences is text, and its line breaks are
// spaces.
func ExampleKept() {
	fmt.Printf("%q\n", tsdrive.Kept("a\x1b[2J\nb\x07c"))
	fmt.Println(tsdrive.Kept(tsdrive.Hostile)[:len(tsdrive.Inert)] == tsdrive.Inert)
	// Output:
	// "a[2J bc"
	// true
}
