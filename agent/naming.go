package agent

import (
	"regexp"
	"strings"
	"unicode"
)

// namePattern is what a capability name must match: it becomes a
// protocol-facing tool name, and MCP, WebMCP and A2A all accept this set.
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)

// DefaultName is the protocol name a capability gets when it declares none:
// the Go type name with its first letter lowered and every later capital
// starting a new word after an underscore. There is deliberately no special
// case for runs of capitals, so a type with an acronym is better given an
// explicit name:
//
//	RequestedDeleteTodo → requested_delete_todo
//	LoadedHTTPCache     → loaded_h_t_t_p_cache
//	Load2Todos          → load2_todos
func DefaultName(typeName string) string {
	var b strings.Builder
	b.Grow(len(typeName) + 4)
	for i, r := range typeName {
		lower := unicode.ToLower(r)
		if i > 0 && lower != r {
			b.WriteByte('_')
		}
		b.WriteRune(lower)
	}
	return b.String()
}

// ValidName reports whether name can be a capability name: 1 to 128
// characters of [a-zA-Z0-9_-].
func ValidName(name string) bool { return namePattern.MatchString(name) }
