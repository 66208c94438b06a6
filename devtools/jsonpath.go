package devtools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// tree encodes v as JSON and decodes it into plain values (maps, slices,
// json.Number, strings, bools, nil), the form paths, diffs and redaction
// walk.
func tree(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// Change is one place two Models differ: its path (a JSON Pointer, RFC
// 6901) and the values before and after (absent where the place did not
// exist).
type Change struct {
	Path   string `json:"path"`
	Before any    `json:"before,omitempty"`
	After  any    `json:"after,omitempty"`
}

// diff lists the places a and b differ, the deepest that differ as a whole
// (an object's changed member, not the object), in path order.
func diff(a, b any) []Change {
	var out []Change
	walkDiff(a, b, "", &out)
	return out
}

func walkDiff(a, b any, at string, out *[]Change) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := slices.Sorted(maps.Keys(am))
		for k := range bm {
			if _, ok := am[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range slices.Compact(keys) {
			walkDiff(am[k], bm[k], at+"/"+escape(k), out)
		}
		return
	}
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok {
		for i := range max(len(as), len(bs)) {
			var x, y any
			if i < len(as) {
				x = as[i]
			}
			if i < len(bs) {
				y = bs[i]
			}
			walkDiff(x, y, at+"/"+strconv.Itoa(i), out)
		}
		return
	}
	if !equalTree(a, b) {
		*out = append(*out, Change{Path: orRoot(at), Before: a, After: b})
	}
}

func orRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// equalTree compares two decoded trees.
func equalTree(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

func unescape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~")
}

// PathError reports a path that is not well formed or names no place in
// the value. It names the path, never a value.
type PathError struct {
	Path   string
	Reason string
}

func (e *PathError) Error() string { return fmt.Sprintf("devtools: path %q: %s", e.Path, e.Reason) }

// splitPath splits a JSON Pointer into its unescaped segments; "" and "/"
// name the whole value.
func splitPath(p string) ([]string, error) {
	if p == "" || p == "/" {
		return nil, nil
	}
	if !strings.HasPrefix(p, "/") {
		return nil, &PathError{Path: p, Reason: "a path starts with /"}
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		segs[i] = unescape(s)
	}
	return segs, nil
}

// at returns the value at path p in v.
func at(v any, p string) (any, error) {
	segs, err := splitPath(p)
	if err != nil {
		return nil, err
	}
	for _, s := range segs {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[s]
			if !ok {
				return nil, &PathError{Path: p, Reason: "no such member"}
			}
			v = next
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(x) {
				return nil, &PathError{Path: p, Reason: "no such index"}
			}
			v = x[i]
		default:
			return nil, &PathError{Path: p, Reason: "goes below a value that has no members"}
		}
	}
	return v, nil
}

// under reports whether path is prefix or lies below it.
func under(path, prefix string) bool {
	if prefix == "" || prefix == "/" {
		return true
	}
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// Summary stands for a value too large to serve whole.
type Summary struct {
	Summarised bool     `json:"summarised"`
	Kind       string   `json:"kind"`
	Bytes      int      `json:"bytes"`
	Length     int      `json:"length,omitempty"`
	Keys       []string `json:"keys,omitempty"`
}

// maxKeysShown bounds the member names a Summary lists.
const maxKeysShown = 32

// summarise returns v, or a Summary of it when its encoding is larger
// than limit bytes.
func summarise(v any, limit int) any {
	b, err := json.Marshal(v)
	if err != nil || len(b) <= limit {
		return v
	}
	s := Summary{Summarised: true, Bytes: len(b)}
	switch x := v.(type) {
	case map[string]any:
		s.Kind, s.Length = "object", len(x)
		s.Keys = slices.Sorted(maps.Keys(x))
		if len(s.Keys) > maxKeysShown {
			s.Keys = s.Keys[:maxKeysShown]
		}
	case []any:
		s.Kind, s.Length = "array", len(x)
	case string:
		s.Kind, s.Length = "string", len(x)
	default:
		s.Kind = "value"
	}
	return s
}
