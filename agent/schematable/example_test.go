//go:build !foldagent_schematable

package schematable_test

import (
	"fmt"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/schematable"
)

type shelf struct {
	Books []string `json:"books"`
}

func ExampleDerived() {
	// Declaring a watch derives the schema of what it projects; a build
	// without the tag foldagent_schematable notes it for the table.
	agent.Watching("books", func(s shelf) []string { return s.Books })
	derived, err := schematable.Derived()
	if err != nil {
		fmt.Println(err)
		return
	}
	e := derived["projected []string"]
	fmt.Println(string(e.Schema), e.Checked)
	// Output:
	// {"type":["null","array"],"items":{"type":"string"}} false
}
