package schemas

import (
	"encoding/json"

	"github.com/foldagent/foldagent/agent/schematable"
)

func init() { schematable.Install(Table()) }

// Table returns the page's schema table, decoded from table.go. It
// panics if table.go is not a table, which its test rules out.
func Table() map[string]schematable.Entry {
	var entries map[string]schematable.Entry
	if err := json.Unmarshal([]byte(table), &entries); err != nil {
		panic("examples/todo-web/schemas: table.go is not a schema table: " + err.Error())
	}
	return entries
}
