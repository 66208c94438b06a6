package journey

import (
	"bytes"
	"encoding/json"
	"slices"
)

// CallResult is the plain data a port call returns: a JSON object whose
// keys keep the order they were set in, so a model reads ok and judgment
// first and the rest in a stable order. Values are plain JSON-ready data
// (strings, numbers, booleans, slices, maps, nested CallResults, or the
// package's own json-tagged structs). The zero value is an empty object.
//
// Two classes of string ride in it, and they never mix: text fields
// (description, why, howToAct, howToSettle, the *Means fields, facts) hold
// only authored does strings and library sentences; everything from the
// running app (state values, inputs, labels, instance keys, evidence,
// produced data) rides in data fields.
type CallResult struct {
	keys []string
	vals map[string]any
}

// set adds or replaces a key, keeping the position of an existing key.
func (r *CallResult) set(key string, v any) *CallResult {
	if r.vals == nil {
		r.vals = map[string]any{}
	}
	if _, ok := r.vals[key]; !ok {
		r.keys = append(r.keys, key)
	}
	r.vals[key] = v
	return r
}

// Set adds or replaces a key. An existing key keeps its position.
func (r *CallResult) Set(key string, v any) { r.set(key, v) }

// Delete removes a key, if present.
func (r *CallResult) Delete(key string) {
	if _, ok := r.vals[key]; !ok {
		return
	}
	delete(r.vals, key)
	r.keys = slices.DeleteFunc(r.keys, func(k string) bool { return k == key })
}

// Get returns a key's value.
func (r CallResult) Get(key string) (any, bool) {
	v, ok := r.vals[key]
	return v, ok
}

// Has reports whether the key is present.
func (r CallResult) Has(key string) bool {
	_, ok := r.vals[key]
	return ok
}

// String returns a key's value when it is a string, else "".
func (r CallResult) String(key string) string {
	s, _ := r.vals[key].(string)
	return s
}

// Keys lists the keys in order.
func (r CallResult) Keys() []string { return slices.Clone(r.keys) }

// Len is the number of keys.
func (r CallResult) Len() int { return len(r.keys) }

// OK is the ok field: whether the call did what it was asked. ok:false is
// a fact about the call; a pause for the human is not a failure.
func (r CallResult) OK() bool { b, _ := r.vals["ok"].(bool); return b }

// Judgment is the routing word of the result.
func (r CallResult) Judgment() string { return r.String("judgment") }

// Clone returns a copy whose top level can be changed independently.
func (r CallResult) Clone() CallResult {
	c := CallResult{keys: slices.Clone(r.keys), vals: make(map[string]any, len(r.vals))}
	for k, v := range r.vals {
		c.vals[k] = v
	}
	return c
}

// MarshalJSON encodes the object with its keys in order and without HTML
// escaping (a model reads '<' better than \u003c).
func (r CallResult) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range r.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := portMarshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := portMarshal(r.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// JSON is MarshalJSON for callers that want the bytes a model will read.
func (r CallResult) JSON() []byte {
	b, err := r.MarshalJSON()
	if err != nil {
		// Every value a port puts in a result is plain data; a failure
		// here is a defect, reported as data rather than a panic.
		return []byte(`{"ok":false,"judgment":"error","reason":"UNENCODABLE_RESULT"}`)
	}
	return b
}

// portMarshal encodes v without HTML escaping and without a trailing
// newline.
func portMarshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// FoldSettled folds a fire's settled facts (Port.SettledAnswer) into the
// result the fire returned, the way an MCP server answers once the fire
// came to rest within its ceiling: the facts overwrite the synchronous
// effectStatus, and the keys that only ride the pending arm (howToSettle,
// settleWith) are dropped, because they point at a poll nobody needs. A
// do_action result's judgment follows the settlement (done, or rejected
// when the fire was refused, rejected or rolled back); a journey step's
// judgment stays about its frame.
func (r *CallResult) FoldSettled(facts CallResult) {
	for _, k := range facts.keys {
		r.set(k, facts.vals[k])
	}
	r.Delete("howToSettle")
	r.Delete("settleWith")
	if r.Has("journey") || !r.Has("judgment") {
		return
	}
	now := facts.String("outcome")
	if moved := facts.String("outcomeNow"); moved != "" {
		now = moved
	}
	judgment := "done"
	if facts.String("effectStatus") == string(EffectRefused) || now == string(OutcomeRejected) || now == string(OutcomeRolledBack) {
		judgment = "rejected"
	}
	r.set("judgment", judgment)
}
