package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds the input validator: a checker compiled once per input
// type from the JSON Schema the capability advertises, which walks the raw
// payload bytes and decides exactly what jsonschema-go's Resolved.Validate
// would decide about the same payload decoded into an any, without
// building that any.
//
// Why not simply call jsonschema-go? Because its input is a tree of maps
// and slices, and decoding the payload into that tree, then walking it by
// reflection, costs several times what the application's own decode
// costs; the dispatch path is meant to cost little more than a
// hand-written handler. The schemas dispatch sees are narrow: they are
// derived from Go types (derive.go), so they use a handful of keywords (type,
// properties, required, additionalProperties, items, minItems/maxItems,
// minimum/maximum, minLength/maxLength, annotations). The validator
// implements exactly those.
// A schema node using anything else (a pattern, an enum, a format, oneOf…),
// typically a WireSchema type, is handed to jsonschema-go: the validator
// finds the bytes of that value, decodes only them and asks jsonschema-go.
// A schema using references, identifiers or a $schema is handed to
// jsonschema-go whole, since its subschemas cannot be judged in isolation.
//
// The walk is also a strict JSON parser with encoding/json's syntax rules
// (including its nesting limit and its float64 range for numbers, which
// decoding into an any enforces), so the validator's verdict never depends
// on a later decode to catch malformed input.
//
// One deliberate difference from jsonschema-go: when an object names the
// same member more than once, jsonschema-go sees only the last occurrence
// (the map decode keeps the last) while encoding/json decodes every
// occurrence into the same struct or map, so a value from an earlier
// occurrence can survive into the decoded input. The validator therefore
// checks every occurrence. It refuses a payload jsonschema-go would accept
// only when an earlier occurrence of a repeated member is itself invalid.

// maxNestingDepth is encoding/json's limit on nested arrays and objects.
const maxNestingDepth = 10000

// linearLookupLimit is the number of declared members up to which a key is
// looked up by comparing names in turn, which beats a map for the few
// fields an input struct usually has.
const linearLookupLimit = 8

// jsonKind is a set of JSON Schema type names, as bits.
type jsonKind uint8

const (
	kindNull jsonKind = 1 << iota
	kindBoolean
	kindObject
	kindArray
	kindNumber
	kindInteger
	kindString
)

var kindNames = map[string]jsonKind{
	"null": kindNull, "boolean": kindBoolean, "object": kindObject, "array": kindArray,
	"number": kindNumber, "integer": kindInteger, "string": kindString,
}

func (k jsonKind) String() string {
	var names []string
	for name, bit := range kindNames {
		if k&bit != 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// extraMode says what an object accepts besides its declared properties.
type extraMode uint8

const (
	extraAny    extraMode = iota // additionalProperties absent or true
	extraNone                    // additionalProperties false
	extraSchema                  // additionalProperties is a schema
)

// vnode is one compiled schema node.
type vnode struct {
	// never is the false schema: no value validates.
	never bool
	// kinds is the allowed types; zero means any type.
	kinds jsonKind
	// fallback, when set, judges the value with jsonschema-go.
	fallback judge

	// Object keywords. fields holds the declared properties and the
	// required names, in that order; a required name that is not declared
	// is still subject to additionalProperties.
	fields    []vfield
	byName    map[string]int // set when len(fields) > linearLookupLimit
	required  []int          // indexes into fields
	extra     extraMode
	extraNode *vnode

	// Array keywords.
	items              *vnode // nil: any item
	minItems, maxItems int    // -1: absent

	// Number keywords.
	hasMin, hasMax bool
	min, max       float64

	// String keywords, in Unicode code points; minLength 0 is no bound.
	minLength int
	maxLength int // -1: absent
}

type vfield struct {
	name     string
	node     *vnode // nil when the name is only required, not declared
	declared bool
}

// anyNode is the true schema: every well-formed value validates.
var anyNode = &vnode{minItems: -1, maxItems: -1, maxLength: -1}

// validator checks raw payloads against one compiled schema.
type validator struct {
	root *vnode
	// whole, when set, is used instead of root for the whole payload.
	whole judge
}

// compileValidator compiles the JSON Schema raw. When raw cannot be
// judged node by node, it is judged whole by jsonschema-go.
func compileValidator(raw json.RawMessage) (*validator, error) {
	if !isLocal(raw) {
		whole, err := fallbackJudge(raw)
		if err != nil {
			return nil, err
		}
		return &validator{whole: whole}, nil
	}
	root, err := compileNode(raw)
	if err != nil {
		return nil, err
	}
	return &validator{root: root}, nil
}

// nonLocalKeywords name an identifier, anchor, reference, definition,
// vocabulary or dialect: a schema using one cannot be judged a node at a
// time, since a node may stand for another.
var nonLocalKeywords = []string{"$id", "$schema", "$ref", "$anchor", "$dynamicAnchor", "$dynamicRef", "$defs", "definitions", "$vocabulary"}

// isLocal reports whether raw can be judged node by node: no object in
// it, at any depth, has a member named by nonLocalKeywords. It looks into
// every object (the values of const and enum, a property named "$ref"),
// which at worst sends a schema to be judged whole needlessly.
func isLocal(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	return localValue(v)
}

func localValue(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			if slices.Contains(nonLocalKeywords, k) || !localValue(c) {
				return false
			}
		}
	case []any:
		for _, c := range v {
			if !localValue(c) {
				return false
			}
		}
	}
	return true
}

// annotations are the keywords that say something about a value without
// constraining it.
var annotations = []string{"title", "description", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly"}

// compileNode compiles one schema node. A node using a keyword outside
// the validator's subset (or using one of its keywords in a way it does
// not implement) is left to jsonschema-go, on its own.
func compileNode(raw json.RawMessage) (*vnode, error) {
	switch string(raw) {
	case "true":
		return &vnode{minItems: -1, maxItems: -1, maxLength: -1}, nil
	case "false":
		return &vnode{never: true}, nil
	case "null":
		return nil, errors.New("a subschema is missing (null)")
	}
	members, err := objectMembers(raw)
	if err != nil {
		return nil, fmt.Errorf("a subschema is not a JSON Schema: %w", err)
	}
	n := &vnode{minItems: -1, maxItems: -1, maxLength: -1}
	local, constraints := true, 0
	var not json.RawMessage
	for _, m := range members {
		if slices.Contains(annotations, m.name) {
			continue
		}
		constraints++
		if string(m.value) == "null" && m.name != "not" {
			continue // jsonschema-go reads it as absent
		}
		switch m.name {
		case "not":
			not = m.value
		case "type":
			local = local && compileKinds(m.value, n)
		case "properties":
			local = local && compileProperties(m.value, n) == nil
		case "required":
			var required []string
			if json.Unmarshal(m.value, &required) != nil {
				local = false
				break
			}
			n.required = n.required[:0]
			for _, name := range required {
				i := slices.IndexFunc(n.fields, func(f vfield) bool { return f.name == name })
				if i < 0 {
					n.fields = append(n.fields, vfield{name: name})
					i = len(n.fields) - 1
				}
				if !slices.Contains(n.required, i) {
					n.required = append(n.required, i)
				}
			}
		case "additionalProperties":
			if m.value[0] != '{' && m.value[0] != 't' && m.value[0] != 'f' {
				local = false
				break
			}
			child, err := compileNode(m.value)
			if err != nil {
				return nil, err
			}
			switch {
			case child.never:
				n.extra, n.extraNode = extraNone, nil
			case child.isAny():
				n.extra, n.extraNode = extraAny, nil
			default:
				n.extra, n.extraNode = extraSchema, child
			}
		case "items":
			if m.value[0] != '{' && m.value[0] != 't' && m.value[0] != 'f' {
				local = false // an items array, of draft 2019 and before
				break
			}
			child, err := compileNode(m.value)
			if err != nil {
				return nil, err
			}
			n.items = nil
			if !child.isAny() {
				n.items = child
			}
		case "minItems", "maxItems":
			var v int
			if json.Unmarshal(m.value, &v) != nil {
				local = false
			} else if m.name == "minItems" {
				n.minItems = v
			} else {
				n.maxItems = v
			}
		case "minLength", "maxLength":
			var v int
			if json.Unmarshal(m.value, &v) != nil || v < 0 {
				local = false
			} else if m.name == "minLength" {
				n.minLength = v
			} else {
				n.maxLength = v
			}
		case "minimum", "maximum":
			var v float64
			if json.Unmarshal(m.value, &v) != nil {
				local = false
			} else if m.name == "minimum" {
				n.hasMin, n.min = true, v
			} else {
				n.hasMax, n.max = true, v
			}
		default:
			local = false
		}
	}
	if not != nil {
		// {"not": {}} is the false schema; any other use of not is
		// jsonschema-go's.
		if constraints == 1 && (string(not) == "true" || string(not) == "{}") {
			return &vnode{never: true}, nil
		}
		local = false
	}
	if !local {
		j, err := fallbackJudge(raw)
		if err != nil {
			return nil, fmt.Errorf("a subschema cannot be judged on its own: %w", err)
		}
		return &vnode{fallback: j}, nil
	}
	if len(n.fields) > linearLookupLimit {
		n.byName = make(map[string]int, len(n.fields))
		for i, f := range n.fields {
			n.byName[f.name] = i
		}
	}
	return n, nil
}

// compileProperties adds the declared properties to n, in the schema's
// order, which makes the walk and its errors deterministic.
func compileProperties(raw json.RawMessage, n *vnode) error {
	props, err := objectMembers(raw)
	if err != nil {
		return err
	}
	for _, p := range props {
		child, err := compileNode(p.value)
		if err != nil {
			return err
		}
		if i := slices.IndexFunc(n.fields, func(f vfield) bool { return f.name == p.name }); i >= 0 {
			n.fields[i].node, n.fields[i].declared = child, true
			continue
		}
		n.fields = append(n.fields, vfield{name: p.name, node: child, declared: true})
	}
	return nil
}

// compileKinds reads "type" into n.kinds. It reports false for a type
// name JSON Schema does not define, or an empty list, which are left to
// jsonschema-go.
func compileKinds(raw json.RawMessage, n *vnode) bool {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		k, ok := kindNames[one]
		n.kinds = k
		return ok
	}
	var names []string
	if json.Unmarshal(raw, &names) != nil || len(names) == 0 {
		// "type": [] allows nothing; rare enough to leave to jsonschema-go.
		return false
	}
	n.kinds = 0
	for _, name := range names {
		k, ok := kindNames[name]
		if !ok {
			return false
		}
		n.kinds |= k
	}
	return true
}

// isAny reports whether n accepts every well-formed value.
func (n *vnode) isAny() bool {
	return !n.never && n.fallback == nil && n.kinds == 0 && len(n.fields) == 0 && n.extra == extraAny &&
		n.items == nil && n.minItems < 0 && n.maxItems < 0 && !n.hasMin && !n.hasMax &&
		n.minLength == 0 && n.maxLength < 0
}

// lookup returns the index of the field named key, or -1.
func (n *vnode) lookup(key []byte) int {
	if n.byName != nil {
		if i, ok := n.byName[string(key)]; ok {
			return i
		}
		return -1
	}
	for i := range n.fields {
		if n.fields[i].name == string(key) {
			return i
		}
	}
	return -1
}

// validate reports whether raw is a JSON object that the schema accepts.
// It allocates nothing for a payload the fast path accepts.
func (v *validator) validate(raw []byte) error {
	p := payloadWalker{data: raw}
	p.skipSpace()
	if p.i >= len(raw) || raw[p.i] != '{' {
		return ErrNotObject
	}
	if v.whole != nil {
		var instance any
		if err := json.Unmarshal(raw, &instance); err != nil {
			return fmt.Errorf("the payload is not valid JSON: %w", err)
		}
		if err := v.whole(instance); err != nil {
			return &Mismatch{code: CodeInvalid, reason: err.Error()}
		}
		return nil
	}
	if err := p.value(v.root); err != nil {
		return err
	}
	p.skipSpace()
	if p.i != len(raw) {
		return p.syntaxError("after the top-level value")
	}
	return nil
}

// Codes of the problems the validator reports, one per Mismatch and
// Problem. They are short, stable words a caller can act on; agent
// exports them as ProblemCode values.
const (
	// CodeUndeclared: a member the schema does not declare, in a closed
	// object.
	CodeUndeclared = "undeclared"
	// CodeMissing: a required member is absent. The path names the
	// member itself.
	CodeMissing = "missing"
	// CodeWrongType: a value of a type (null included) the schema does not
	// allow there, or a payload that is not an object at all.
	CodeWrongType = "wrong_type"
	// CodeInvalid: a value of an allowed type that breaks another rule
	// (a range, an item count, a pattern, an enumeration).
	CodeInvalid = "invalid"
	// CodeMalformed: the payload is not well-formed JSON.
	CodeMalformed = "malformed"
)

// Mismatch is the cause of an InvalidInputError raised by the
// validator: where in the payload the schema was not met, and how. Its
// Error is for the application's logs; its Path and Code are what an
// agent may be shown. It names the member path but never restates a
// value.
type Mismatch struct {
	// path holds the JSON Pointer segments, innermost first.
	path   []string
	code   string
	reason string
}

func (e *Mismatch) Error() string {
	return "at " + pointer(e.path) + ": " + e.reason
}

// Path returns where the schema was not met, as a JSON Pointer ("/" for
// the whole payload in the log text, "" from Path).
func (e *Mismatch) Path() string {
	if len(e.path) == 0 {
		return ""
	}
	return pointer(e.path)
}

// Code returns the problem's code (CodeUndeclared, CodeMissing, ...).
func (e *Mismatch) Code() string { return e.code }

// pointer renders innermost-first segments as a JSON Pointer, "/" when
// there are none.
func pointer(segs []string) string {
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(EscapePointer(segs[i]))
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}

// EscapePointer escapes a JSON Pointer reference token (RFC 6901): "~"
// as "~0" and "/" as "~1". (A loop rather than strings.ReplaceAll or a
// strings.Replacer, whose code would be linked into a browser build for
// this alone.)
func EscapePointer(seg string) string {
	if !strings.ContainsAny(seg, "~/") {
		return seg
	}
	b := make([]byte, 0, len(seg)+4)
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '~':
			b = append(b, "~0"...)
		case '/':
			b = append(b, "~1"...)
		default:
			b = append(b, seg[i])
		}
	}
	return string(b)
}

func mismatch(code, format string, args ...any) error {
	return &Mismatch{code: code, reason: fmt.Sprintf(format, args...)}
}

// within records that err happened inside the member or item seg.
func within(err error, seg string) error {
	if m, ok := errors.AsType[*Mismatch](err); ok {
		m.path = append(m.path, seg)
	}
	return err
}

// payloadWalker is one validation's position in the payload.
type payloadWalker struct {
	data  []byte
	i     int
	depth int
	// diag, when set, makes the walk collect every mismatch and go on
	// instead of stopping at the first (see validator.diagnose).
	diag *diagnosis
}

// fail reports a schema mismatch: as the walk's error normally, or, when
// diagnosing, by recording it at the current path and going on.
func (p *payloadWalker) fail(err error) error {
	if p.diag == nil {
		return err
	}
	p.diag.record(err.(*Mismatch).code)
	return nil
}

func (p *payloadWalker) syntaxError(where string) error {
	if p.i >= len(p.data) {
		return fmt.Errorf("the payload is not valid JSON: it ends %s", where)
	}
	return fmt.Errorf("the payload is not valid JSON: unexpected byte %q at offset %d, %s", p.data[p.i], p.i, where)
}

func (p *payloadWalker) skipSpace() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value checks the value at p.i against n and moves past it.
func (p *payloadWalker) value(n *vnode) error {
	if p.i >= len(p.data) {
		return p.syntaxError("where a value should start")
	}
	if n.fallback != nil {
		return p.fallback(n.fallback)
	}
	var got jsonKind
	switch c := p.data[p.i]; {
	case c == '{':
		if err := p.admit(n, kindObject); err != nil {
			return err
		}
		if p.diag != nil && !n.accepts(kindObject) {
			return p.object(anyNode) // recorded; walk past it
		}
		return p.object(n)
	case c == '[':
		if err := p.admit(n, kindArray); err != nil {
			return err
		}
		if p.diag != nil && !n.accepts(kindArray) {
			return p.array(anyNode)
		}
		return p.array(n)
	case c == '"':
		start := p.i
		plain, err := p.str()
		if err != nil {
			return err
		}
		if err := p.admit(n, kindString); err != nil {
			return err
		}
		if !n.accepts(kindString) || n.minLength == 0 && n.maxLength < 0 {
			return nil // recorded by admit when diagnosing, or unbounded
		}
		return p.length(n, p.data[start:p.i], plain)
	case c == 't':
		got = kindBoolean
		if err := p.literal("true"); err != nil {
			return err
		}
	case c == 'f':
		got = kindBoolean
		if err := p.literal("false"); err != nil {
			return err
		}
	case c == 'n':
		got = kindNull
		if err := p.literal("null"); err != nil {
			return err
		}
	case c == '-' || '0' <= c && c <= '9':
		return p.number(n)
	default:
		return p.syntaxError("where a value should start")
	}
	return p.admit(n, got)
}

// length checks the string token against n's minLength and maxLength,
// counted in Unicode code points, as JSON Schema counts them, of the
// string encoding/json decodes (where each byte that is not UTF-8 becomes
// one U+FFFD).
func (p *payloadWalker) length(n *vnode, token []byte, plain bool) error {
	var count int
	if plain {
		count = utf8.RuneCount(token[1 : len(token)-1])
	} else {
		s, err := unquote(token)
		if err != nil {
			return err
		}
		count = utf8.RuneCountInString(s)
	}
	if count < n.minLength {
		return p.fail(mismatch(CodeInvalid, "the string has %d characters, fewer than %d", count, n.minLength))
	}
	if n.maxLength >= 0 && count > n.maxLength {
		return p.fail(mismatch(CodeInvalid, "the string has %d characters, more than %d", count, n.maxLength))
	}
	return nil
}

// admit checks that a value of kind got may stand where n is.
func (p *payloadWalker) admit(n *vnode, got jsonKind) error {
	if n.accepts(got) {
		return nil
	}
	if n.never {
		return p.fail(mismatch(CodeInvalid, "no value is allowed here"))
	}
	return p.fail(mismatch(CodeWrongType, "found %s, want %s", got, n.kinds))
}

// accepts reports whether a value of kind got may stand where n is.
func (n *vnode) accepts(got jsonKind) bool {
	if n.never {
		return false
	}
	return n.kinds == 0 || n.kinds&got != 0 || got == kindInteger && n.kinds&kindNumber != 0
}

func (p *payloadWalker) enter() error {
	p.depth++
	if p.depth > maxNestingDepth {
		return fmt.Errorf("the payload is not valid JSON: it nests deeper than %d levels", maxNestingDepth)
	}
	return nil
}

func (p *payloadWalker) object(n *vnode) error {
	if err := p.enter(); err != nil {
		return err
	}
	p.i++ // {
	// seen marks the fields present; a bitmask covers the usual struct.
	var (
		seen     uint64
		seenMore []bool
	)
	if len(n.fields) > 64 {
		seenMore = make([]bool, len(n.fields))
	}
	p.skipSpace()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
	} else {
		for {
			p.skipSpace()
			if p.i >= len(p.data) || p.data[p.i] != '"' {
				return p.syntaxError("where a member name should start")
			}
			start := p.i
			plain, err := p.str()
			if err != nil {
				return err
			}
			token := p.data[start:p.i]
			key := token[1 : len(token)-1]
			p.skipSpace()
			if p.i >= len(p.data) || p.data[p.i] != ':' {
				return p.syntaxError("after a member name")
			}
			p.i++
			p.skipSpace()

			child := anyNode
			field := -1
			if len(n.fields) > 0 || n.extra == extraNone {
				if plain {
					field = n.lookup(key)
				} else if name, err := unquote(token); err != nil {
					return err
				} else {
					key = []byte(name)
					field = n.lookup(key)
				}
			}
			if field >= 0 {
				if seenMore != nil {
					seenMore[field] = true
				} else {
					seen |= 1 << field
				}
			}
			if p.diag != nil {
				p.diag.push(string(key))
			}
			if field >= 0 && n.fields[field].declared {
				child = n.fields[field].node
			} else {
				switch n.extra {
				case extraNone:
					if p.diag == nil {
						return within(mismatch(CodeUndeclared, "the member is not declared"), string(key))
					}
					p.fail(mismatch(CodeUndeclared, "the member is not declared"))
				case extraSchema:
					child = n.extraNode
				}
			}
			if err := p.value(child); err != nil {
				return within(err, string(key))
			}
			if p.diag != nil {
				p.diag.pop()
			}
			p.skipSpace()
			if p.i < len(p.data) && p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.data) && p.data[p.i] == '}' {
				p.i++
				break
			}
			return p.syntaxError("after an object member")
		}
	}
	p.depth--
	for _, i := range n.required {
		if seenMore != nil && !seenMore[i] || seenMore == nil && seen&(1<<i) == 0 {
			if p.diag == nil {
				return within(mismatch(CodeMissing, "the required member is missing"), n.fields[i].name)
			}
			p.diag.push(n.fields[i].name)
			p.fail(mismatch(CodeMissing, "the required member is missing"))
			p.diag.pop()
		}
	}
	return nil
}

// unquote decodes a JSON string token the way encoding/json does, invalid
// UTF-8 included. It is used only for a member name with escapes or
// invalid UTF-8, so its allocation stays off the common path.
func unquote(token []byte) (string, error) {
	var s string
	if err := json.Unmarshal(token, &s); err != nil {
		return "", fmt.Errorf("the payload is not valid JSON: %w", err)
	}
	return s, nil
}

func (p *payloadWalker) array(n *vnode) error {
	if err := p.enter(); err != nil {
		return err
	}
	p.i++ // [
	items := n.items
	if items == nil {
		items = anyNode
	}
	count := 0
	p.skipSpace()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
	} else {
		for {
			p.skipSpace()
			if p.diag != nil {
				p.diag.push(strconv.Itoa(count))
			}
			if err := p.value(items); err != nil {
				return within(err, strconv.Itoa(count))
			}
			if p.diag != nil {
				p.diag.pop()
			}
			count++
			p.skipSpace()
			if p.i < len(p.data) && p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.data) && p.data[p.i] == ']' {
				p.i++
				break
			}
			return p.syntaxError("after an array element")
		}
	}
	p.depth--
	if n.minItems >= 0 && count < n.minItems {
		return p.fail(mismatch(CodeInvalid, "the array has %d items, fewer than %d", count, n.minItems))
	}
	if n.maxItems >= 0 && count > n.maxItems {
		return p.fail(mismatch(CodeInvalid, "the array has %d items, more than %d", count, n.maxItems))
	}
	return nil
}

// str moves past the string at p.i. plain reports that its bytes are its
// value: no escapes and valid UTF-8.
func (p *payloadWalker) str() (plain bool, err error) {
	p.i++ // "
	start := p.i
	escaped, high := false, false
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			if high && !escaped {
				return utf8.Valid(p.data[start : p.i-1]), nil
			}
			return !escaped, nil
		case c == '\\':
			escaped = true
			p.i++
			if p.i >= len(p.data) {
				return false, p.syntaxError("inside a string")
			}
			switch p.data[p.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i++
			case 'u':
				p.i++
				for range 4 {
					if p.i >= len(p.data) || !isHex(p.data[p.i]) {
						return false, p.syntaxError("in a \\u escape")
					}
					p.i++
				}
			default:
				return false, p.syntaxError("in an escape")
			}
		case c < 0x20:
			return false, p.syntaxError("inside a string")
		default:
			if c >= utf8.RuneSelf {
				high = true
			}
			p.i++
		}
	}
	return false, p.syntaxError("inside a string")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func (p *payloadWalker) literal(word string) error {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		return p.syntaxError("in a literal")
	}
	p.i += len(word)
	return nil
}

// number moves past the number at p.i and checks it against n. Its value
// is what encoding/json gives an any, a float64: a number out of float64's
// range is refused, and a number is an integer when that float64 is.
func (p *payloadWalker) number(n *vnode) error {
	start := p.i
	if p.data[p.i] == '-' {
		p.i++
	}
	digits := p.digits()
	if digits == 0 || digits > 1 && p.data[p.i-digits] == '0' {
		if digits == 0 {
			return p.syntaxError("in a number")
		}
		// A leading zero ends the integer part: "01" is "0" then junk.
		p.i -= digits - 1
		digits = 1
	}
	fraction := false
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return p.syntaxError("in a number")
		}
		fraction = true
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return p.syntaxError("in a number")
		}
		fraction = true
	}
	token := p.data[start:p.i]
	var f float64
	if !fraction && digits <= 15 {
		// Exact in a float64: no need for strconv.
		var u int64
		for _, c := range token {
			if c != '-' {
				u = u*10 + int64(c-'0')
			}
		}
		if token[0] == '-' {
			u = -u
		}
		f = float64(u)
	} else {
		var err error
		if f, err = strconv.ParseFloat(string(token), 64); err != nil {
			return p.fail(mismatch(CodeInvalid, "the number does not fit a float64"))
		}
	}
	got := kindNumber
	if _, frac := math.Modf(f); frac == 0 {
		got = kindInteger
	}
	if err := p.admit(n, got); err != nil || !n.accepts(got) {
		return err
	}
	if n.hasMin && f < n.min {
		return p.fail(mismatch(CodeInvalid, "the number is less than the minimum %v", n.min))
	}
	if n.hasMax && f > n.max {
		return p.fail(mismatch(CodeInvalid, "the number is greater than the maximum %v", n.max))
	}
	return nil
}

// digits moves past a run of decimal digits and returns its length.
func (p *payloadWalker) digits() int {
	start := p.i
	for p.i < len(p.data) && '0' <= p.data[p.i] && p.data[p.i] <= '9' {
		p.i++
	}
	return p.i - start
}

// fallback judges the value at p.i with jsonschema-go.
func (p *payloadWalker) fallback(j judge) error {
	start := p.i
	if err := p.value(anyNode); err != nil {
		return err
	}
	var instance any
	if err := json.Unmarshal(p.data[start:p.i], &instance); err != nil {
		return fmt.Errorf("the payload is not valid JSON: %w", err)
	}
	if err := j(instance); err != nil {
		return p.fail(&Mismatch{code: CodeInvalid, reason: err.Error()})
	}
	return nil
}

// judge decides a decoded JSON value the way jsonschema-go's
// Resolved.Validate does (see fallback.go).
type judge func(instance any) error

// MaxProblems bounds how many problems a diagnosis lists, so that a huge
// payload cannot make the refusal sent back huge as well.
const MaxProblems = 20

// Problem is one place where a payload breaks its schema: a JSON Pointer
// to the value (or to the missing member) and a code saying how. It never
// holds a value.
type Problem struct {
	Path string
	Code string
}

// diagnosis is what a collecting walk gathers.
type diagnosis struct {
	stack    []string // the current path, outermost first
	problems []Problem
}

func (d *diagnosis) push(seg string) { d.stack = append(d.stack, seg) }
func (d *diagnosis) pop()            { d.stack = d.stack[:len(d.stack)-1] }

// record notes a problem at the current path, once per path and code
// (every occurrence of a repeated member is walked) and at most
// MaxProblems times.
func (d *diagnosis) record(code string) {
	if len(d.problems) >= MaxProblems {
		return
	}
	var b strings.Builder
	for _, seg := range d.stack {
		b.WriteByte('/')
		b.WriteString(EscapePointer(seg))
	}
	pr := Problem{Path: b.String(), Code: code}
	if !slices.Contains(d.problems, pr) {
		d.problems = append(d.problems, pr)
	}
}

// diagnose lists every problem in raw, in payload order, given first,
// the error validate returned for it. It walks the payload again,
// recording each mismatch and going on past it, so the fast path pays
// nothing for it: only a refused payload is diagnosed. A payload that is
// not an object, or not JSON, has one problem at the root.
func (v *validator) diagnose(raw []byte, first error) []Problem {
	m, isMismatch := errors.AsType[*Mismatch](first)
	switch {
	case first == nil:
		return nil
	case errors.Is(first, ErrNotObject):
		return []Problem{{Path: "", Code: CodeWrongType}}
	case !isMismatch:
		return []Problem{{Path: "", Code: CodeMalformed}}
	case v.whole != nil:
		// Judged whole by jsonschema-go: where is not known.
		return []Problem{{Path: m.Path(), Code: m.code}}
	}
	d := &diagnosis{}
	p := payloadWalker{data: raw, diag: d}
	p.skipSpace()
	err := p.value(v.root)
	if err == nil {
		p.skipSpace()
		if p.i != len(raw) {
			err = p.syntaxError("after the top-level value")
		}
	}
	problems := d.problems
	if len(problems) == 0 {
		// Cannot happen while the two walks agree; the first mismatch
		// is a true answer either way.
		problems = []Problem{{Path: m.Path(), Code: m.code}}
	}
	if err != nil && len(problems) < MaxProblems {
		problems = append(problems, Problem{Path: "", Code: CodeMalformed})
	}
	return problems
}

// Rejection is the error Decode returns for a payload its schema refuses:
// every problem found (see Problem), and the first failure as the cause,
// for the application's logs.
type Rejection struct {
	Problems []Problem
	Err      error
}

func (r *Rejection) Error() string { return r.Err.Error() }

// Unwrap returns the first failure: a *Mismatch, ErrNotObject or a syntax
// error.
func (r *Rejection) Unwrap() error { return r.Err }
