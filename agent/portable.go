package agent

import (
	"bytes"
	"encoding/json"
)

// portableSchema rewrites every "type" given as a list of names into an
// anyOf with one alternative per name, each carrying the schema's other
// keywords: {"type":["null","object"],"properties":{...}} becomes
// {"anyOf":[{"type":"null"},{"type":"object","properties":{...}}]}. The
// two accept exactly the same values (a keyword about objects says
// nothing of null), but some clients and validators (the MCP Inspector's
// --strict among them) refuse type lists in a tool's outputSchema. Values
// (const, enum, default, examples) are data and left as they are. A
// schema without a type list is returned unchanged, byte for byte.
func portableSchema(raw json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	out, changed := portable(v)
	if !changed {
		return raw
	}
	b, err := json.Marshal(out)
	if err != nil {
		return raw
	}
	return b
}

// dataKeywords hold values, not schemas.
var dataKeywords = map[string]bool{"const": true, "enum": true, "default": true, "examples": true}

func portable(v any) (any, bool) {
	switch v := v.(type) {
	case []any:
		changed := false
		for i, e := range v {
			var c bool
			v[i], c = portable(e)
			changed = changed || c
		}
		return v, changed
	case map[string]any:
		changed := false
		for k, e := range v {
			if dataKeywords[k] {
				continue
			}
			var c bool
			v[k], c = portable(e)
			changed = changed || c
		}
		names, ok := v["type"].([]any)
		if !ok {
			return v, changed
		}
		alts := make([]any, 0, len(names))
		for _, n := range names {
			alt := map[string]any{"type": n}
			if n != "null" {
				for k, e := range v {
					if k != "type" {
						alt[k] = e
					}
				}
			}
			alts = append(alts, alt)
		}
		if len(alts) == 1 {
			return alts[0], true
		}
		return map[string]any{"anyOf": alts}, true
	}
	return v, false
}
