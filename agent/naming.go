package agent

import (
	"strings"
	"unicode"
)

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
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
