package fixed

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/foldagent/foldagent/journey"
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
	kv []keyValue
	// lookedAfter is the model's last look before this answer showed it
	// rows (set when it is a look): Port.Undelivered takes the look back
	// to it.
	lookedAfter lookMark
}

type keyValue struct {
	k string
	v any
}

func (r CallResult) index(key string) int {
	for i := range r.kv {
		if r.kv[i].k == key {
			return i
		}
	}
	return -1
}

// set adds or replaces a key, keeping the position of an existing key.
func (r *CallResult) set(key string, v any) *CallResult {
	if i := r.index(key); i >= 0 {
		r.kv[i].v = v
		return r
	}
	if r.kv == nil {
		r.kv = make([]keyValue, 0, 8)
	}
	r.kv = append(r.kv, keyValue{key, v})
	return r
}

// Set adds or replaces a key. An existing key keeps its position.
func (r *CallResult) Set(key string, v any) { r.set(key, v) }

// Delete removes a key, if present.
func (r *CallResult) Delete(key string) {
	if i := r.index(key); i >= 0 {
		r.kv = slices.Delete(r.kv, i, i+1)
	}
}

// Get returns a key's value.
func (r CallResult) Get(key string) (any, bool) {
	if i := r.index(key); i >= 0 {
		return r.kv[i].v, true
	}
	return nil, false
}

// Has reports whether the key is present.
func (r CallResult) Has(key string) bool { return r.index(key) >= 0 }

// String returns a key's value when it is a string, else "".
func (r CallResult) String(key string) string {
	v, _ := r.Get(key)
	s, _ := v.(string)
	return s
}

// Keys lists the keys in order.
func (r CallResult) Keys() []string {
	out := make([]string, len(r.kv))
	for i, e := range r.kv {
		out[i] = e.k
	}
	return out
}

// Len is the number of keys.
func (r CallResult) Len() int { return len(r.kv) }

// OK is the ok field: whether the call did what it was asked. ok:false is
// a fact about the call; a pause for the human is not a failure.
func (r CallResult) OK() bool { v, _ := r.Get("ok"); b, _ := v.(bool); return b }

// Judgment is the routing word of the result.
func (r CallResult) Judgment() string { return r.String("judgment") }

// Reason is the typed refusal code, or "" when the result carries none.
func (r CallResult) Reason() journey.Reason { return journey.Reason(r.String("reason")) }

// TransitionID is the id of the fire the call made (pass it to
// did_it_work, WhenSettled or SettledAnswer), or "" when it made none.
func (r CallResult) TransitionID() string { return r.String("transitionId") }

// Clone returns a copy whose top level can be changed independently.
func (r CallResult) Clone() CallResult {
	return CallResult{kv: slices.Clone(r.kv), lookedAfter: r.lookedAfter}
}

// MarshalJSON encodes the object with its keys in order and without HTML
// escaping (a model reads '<' better than \u003c).
func (r CallResult) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := r.appendJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (r CallResult) appendJSON(b *bytes.Buffer) error {
	b.WriteByte('{')
	for i, e := range r.kv {
		if i > 0 {
			b.WriteByte(',')
		}
		appendString(b, e.k)
		b.WriteByte(':')
		if err := appendValue(b, e.v); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// appendValue writes the common result values directly and hands the
// rest to encoding/json.
func appendValue(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case string:
		appendString(b, x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case CallResult:
		return x.appendJSON(b)
	case rawJSON:
		b.Write(x)
	case []rawJSON:
		if x == nil {
			b.WriteString("null")
			break
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(e)
		}
		b.WriteByte(']')
	case []CallResult:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := e.appendJSON(b); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := appendValue(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		raw, err := marshal(v)
		if err != nil {
			return err
		}
		b.Write(raw)
	}
	return nil
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string exactly as encoding/json does
// with HTML escaping off: quotes, backslashes and control characters
// escaped, U+2028 and U+2029 escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b.WriteString(s[start:i])
			b.WriteString(`\u202`)
			b.WriteByte(hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
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

type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// marshal encodes v without HTML escaping and without a trailing
// newline.
func marshal(v any) ([]byte, error) {
	e := encoders.Get().(*encoder)
	defer encoders.Put(e)
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.Clone(bytes.TrimRight(e.buf.Bytes(), "\n")), nil
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
	for _, e := range facts.kv {
		r.set(e.k, e.v)
	}
	r.Delete("howToSettle")
	r.Delete("settleWith")
	now := facts.String("outcome")
	if moved := facts.String("outcomeNow"); moved != "" {
		now = moved
	}
	refused := facts.String("effectStatus") == string(journey.EffectRefused) || now == string(journey.OutcomeRejected) || now == string(journey.OutcomeRolledBack)
	if refused {
		// Refused when it ran: the answer says so in every field (a
		// journey step's frame judgment gives way, as for any refusal),
		// with the reason code and its sentence at the top, and nothing
		// of the navigation it claimed, which was walked back.
		r.set("ok", false).set("judgment", "rejected")
		if e, ok := facts.Get("error"); ok {
			if ec, ok := e.(CallResult); ok {
				if reason := ec.String("reason"); reason != "" {
					r.set("reason", reason)
				}
				if msg := ec.String("message"); msg != "" {
					r.set("why", msg)
				}
			}
		}
		r.Delete("toNode")
		r.Delete("toNodeClaimed")
		r.Delete("arrival")
		r.Delete("arrivalMeans")
		return
	}
	if r.Has("journey") || !r.Has("judgment") {
		return
	}
	r.set("judgment", "done")
}

// at closes an answer with where the session is: a key the answer holds
// keeps its place, and a lookingAt no longer true goes.
func (r *CallResult) at(here position) *CallResult {
	r.merge(here)
	if here.LookingAt == "" {
		r.Delete("lookingAt")
	}
	return r
}

// ---- typed answers ----

// The port's answers are typed: each answer kind is a Go struct whose
// fields are in wire order, with the json names and omitempty rules the
// wire has, built by a pure function of one snapshot the session gave.
// resultOf turns one into the CallResult a call returns, whose encoding
// is the struct's own (json.Marshal without HTML escaping, byte for byte:
// TestTypedAnswersEncodeAsTheirResult). Nested answer structs become
// nested CallResults, so a caller reading a result by key sees what it
// always saw.

// answerField is one field of an answer struct, as resultOf reads it.
type answerField struct {
	index     []int
	name      string
	omitEmpty bool
	inline    bool // an embedded answer struct, whose fields are promoted
}

var answerPlans sync.Map // reflect.Type -> []answerField

var (
	callResultType = reflect.TypeFor[CallResult]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
)

// planOf lists an answer struct's fields in declaration order.
func planOf(t reflect.Type) []answerField {
	if p, ok := answerPlans.Load(t); ok {
		return p.([]answerField)
	}
	var out []answerField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, answerField{index: f.Index, inline: true})
			continue
		}
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		out = append(out, answerField{index: f.Index, name: name, omitEmpty: opts == "omitempty"})
	}
	answerPlans.Store(t, out)
	return out
}

// resultOf is an answer struct as the ordered result a call returns.
func resultOf(answer any) CallResult {
	var r CallResult
	appendFields(&r, reflect.ValueOf(answer))
	return r
}

func appendFields(r *CallResult, v reflect.Value) {
	for _, f := range planOf(v.Type()) {
		fv := v.FieldByIndex(f.index)
		if f.inline {
			appendFields(r, fv)
			continue
		}
		if f.omitEmpty && emptyValue(fv) {
			continue
		}
		r.set(f.name, plainValue(fv))
	}
}

// isAnswer reports whether t is one of this package's answer structs
// (not CallResult, which already is a result).
func isAnswer(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t != callResultType && t.PkgPath() == callResultType.PkgPath()
}

// plainValue is a field's value as a result holds it: named strings as
// string, pointers followed, answer structs as CallResults.
func plainValue(v reflect.Value) any {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		return plainValue(v.Elem())
	}
	if v.Type().Implements(marshalerType) {
		// A value with its own encoding (journey.Observed) keeps it.
		return v.Interface()
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return v.Bool()
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return v.Elem().Interface()
	case reflect.Struct:
		if isAnswer(v.Type()) {
			return resultOf(v.Interface())
		}
	case reflect.Slice:
		if !v.IsNil() && isAnswer(v.Type().Elem()) {
			out := make([]CallResult, v.Len())
			for i := range out {
				out[i] = resultOf(v.Index(i).Interface())
			}
			return out
		}
	}
	return v.Interface()
}

// emptyValue is encoding/json's rule for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// no is the false a field carries when it is present only as false
// (materialized: false, feasible: false).
func no() *bool { f := false; return &f }

// merge sets every field of a typed part on r, in the part's order: a key
// r already holds keeps its place and takes the part's value.
func (r *CallResult) merge(part any) {
	for _, e := range resultOf(part).kv {
		r.set(e.k, e.v)
	}
}
