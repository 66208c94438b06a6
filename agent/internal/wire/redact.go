package wire

import (
	"bytes"
	"encoding/json"
)

// RedactedValue replaces a redacted member's value in an audit input.
var RedactedValue = json.RawMessage(`"[redacted]"`)

// RedactObject copies the JSON object in payload field by field, in the
// caller's order, compacting each value and replacing the redacted ones.
// It scans the top level by hand, after json.Valid has vouched for the
// syntax, so that redaction costs a copy rather than a decode.
func RedactObject(payload []byte, redacted func(rawKey []byte) bool) (json.RawMessage, bool) {
	if !json.Valid(payload) {
		return nil, false
	}
	// Valid JSON has only JSON whitespace around its value: trimmed by
	// hand rather than with bytes.TrimSpace, whose Unicode code a browser
	// build would link for this alone.
	p := payload[skipSpace(payload, 0):]
	for len(p) > 0 && skipSpace(p, len(p)-1) == len(p) {
		p = p[:len(p)-1]
	}
	var b bytes.Buffer
	b.Grow(len(p))
	b.WriteByte('{')
	i := 1
	for first := true; ; first = false {
		i = skipSpace(p, i)
		if p[i] == '}' {
			break
		}
		if p[i] == ',' {
			i = skipSpace(p, i+1)
		}
		keyEnd := endOfString(p, i)
		key := p[i:keyEnd]
		i = skipSpace(p, keyEnd) + 1 // past ':'
		i = skipSpace(p, i)
		valueEnd := endOfValue(p, i)
		if !first {
			b.WriteByte(',')
		}
		b.Write(key)
		b.WriteByte(':')
		if redacted(key) {
			b.Write(RedactedValue)
		} else if err := json.Compact(&b, p[i:valueEnd]); err != nil {
			return nil, false
		}
		i = valueEnd
	}
	b.WriteByte('}')
	return b.Bytes(), true
}

func skipSpace(p []byte, i int) int {
	for i < len(p) && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
		i++
	}
	return i
}

// endOfString returns the index just past the JSON string starting at i.
func endOfString(p []byte, i int) int {
	for j := i + 1; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(p)
}

// endOfValue returns the index just past the JSON value starting at i
// (trailing spaces included, which Compact removes).
func endOfValue(p []byte, i int) int {
	depth := 0
	for j := i; j < len(p); j++ {
		switch p[j] {
		case '"':
			j = endOfString(p, j) - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j
			}
			depth--
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	return len(p)
}
