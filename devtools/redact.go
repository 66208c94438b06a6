package devtools

import (
	"encoding/json"
	"strings"
)

// Redacted is what a redacted value reads.
const Redacted = "[redacted]"

// secretNames are member names redacted wherever they appear, unless the
// application reveals them: what a Model should not show a tool.
var secretNames = []string{"password", "passwd", "secret", "token", "apikey", "api_key", "credential", "credentials", "privatekey", "private_key"}

// redactor decides which places of a Model or Message are served as
// Redacted.
type redactor struct {
	paths   [][]string      // Options.Redact, split; "*" matches any segment
	reveal  [][]string      // Options.Reveal, split
	exposed map[string]bool // member names the contract's projection has; nil: no contract
}

func newRedactor(redact, reveal []string, contextSchema json.RawMessage) (*redactor, error) {
	r := &redactor{}
	for _, p := range redact {
		s, err := splitPath(p)
		if err != nil {
			return nil, err
		}
		r.paths = append(r.paths, s)
	}
	for _, p := range reveal {
		s, err := splitPath(p)
		if err != nil {
			return nil, err
		}
		r.reveal = append(r.reveal, s)
	}
	if len(contextSchema) > 0 {
		var schema any
		if err := json.Unmarshal(contextSchema, &schema); err != nil {
			return nil, err
		}
		r.exposed = map[string]bool{}
		collectNames(schema, r.exposed)
	}
	return r, nil
}

// collectNames gathers every property name a JSON Schema declares, at
// any depth.
func collectNames(s any, into map[string]bool) {
	switch x := s.(type) {
	case map[string]any:
		if props, ok := x["properties"].(map[string]any); ok {
			for k := range props {
				into[strings.ToLower(k)] = true
			}
		}
		for _, v := range x {
			collectNames(v, into)
		}
	case []any:
		for _, v := range x {
			collectNames(v, into)
		}
	}
}

// apply returns v with every redacted place replaced, in place; v is a
// tree of its own (see tree).
func (r *redactor) apply(v any) any {
	return r.walk(v, nil)
}

func (r *redactor) walk(v any, path []string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			p := append(path[:len(path):len(path)], k)
			if r.hides(p) {
				x[k] = Redacted
				continue
			}
			x[k] = r.walk(child, p)
		}
	case []any:
		for i, child := range x {
			p := append(path[:len(path):len(path)], itoa(i))
			if r.hides(p) {
				x[i] = Redacted
				continue
			}
			x[i] = r.walk(child, p)
		}
	}
	return v
}

// hides reports whether the place at path is redacted: named by Redact, or
// a member whose name is a secret's or (with a contract) one the
// projection never exposes, unless Reveal names it.
func (r *redactor) hides(path []string) bool {
	if matchesAny(r.reveal, path) {
		return false
	}
	if matchesAny(r.paths, path) {
		return true
	}
	name := strings.ToLower(path[len(path)-1])
	if isIndex(name) {
		return false
	}
	for _, s := range secretNames {
		if name == s {
			return true
		}
	}
	return r.exposed != nil && !r.exposed[name]
}

func matchesAny(patterns [][]string, path []string) bool {
	for _, p := range patterns {
		if len(p) != len(path) {
			continue
		}
		ok := true
		for i := range p {
			if p[i] != "*" && p[i] != path[i] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
