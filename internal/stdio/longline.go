package stdio

import "encoding/json"

// maxIDBytes bounds the id idScan keeps of a line too long to read: an id
// longer than this is not answered with.
const maxIDBytes = 1024

// idScan reads a line too long to keep, byte by byte and in constant
// memory, for what its answer needs: the "id" of the top-level object,
// and whether the line is a request (a top-level "method") or a response
// (a top-level "result" or "error"). Only a request is answered with its
// id: a response's id is one the server chose, and an error carrying it
// would read, to the client, as the answer to a request of its own.
//
// It follows strings (escapes included) and nesting, so an "id" inside
// params is not taken for the message's. It does not validate the line:
// whatever it finds is checked (json.Valid) before it is used.
type idScan struct {
	started  bool // the first significant byte was seen
	depth    int
	inString bool
	escaped  bool

	// At depth 1, the current key and what is expected next.
	wantKey bool   // the next string is a key
	inKey   bool   // the current string is a key
	key     []byte // the current key, up to 8 bytes
	long    bool   // the current key is longer than 8 bytes, or escaped
	wantVal bool   // after the colon: the next value is the key's
	isID    bool   // the key being valued is "id"

	capturing string // "string" or "number": the id being read
	id        []byte

	request, response bool
	stop              bool // nothing later can change the answer
}

// feed scans the next bytes of the line.
func (s *idScan) feed(b []byte) {
	for _, c := range b {
		if s.stop {
			return
		}
		s.byte(c)
	}
}

func (s *idScan) byte(c byte) {
	if s.inString {
		if s.capturing != "" {
			s.keep(c)
		}
		switch {
		case s.escaped:
			s.escaped = false
			s.long = s.long || s.inKey
		case c == '\\':
			s.escaped = true
		case c == '"':
			s.inString = false
			if s.inKey {
				s.inKey = false
				s.keyEnded()
			}
			if s.capturing != "" {
				s.capturing = ""
				s.idEnded()
			}
		case s.inKey:
			if len(s.key) < 8 {
				s.key = append(s.key, c)
			} else {
				s.long = true
			}
		}
		return
	}
	if s.capturing == "number" {
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			s.keep(c)
			return
		}
		s.capturing = ""
		s.idEnded()
	}
	switch c {
	case ' ', '\t', '\r', '\n':
		return
	}
	if !s.started {
		s.started = true
		if c != '{' {
			s.stop = true // not an object: no id to read
			return
		}
	}
	value := s.depth == 1 && s.wantVal
	if value {
		s.wantVal = false
	}
	switch c {
	case '{', '[':
		if value && s.isID {
			s.isID = false // an id that is an object or array is unusable
		}
		s.depth++
		if s.depth == 1 {
			s.wantKey = true
		}
	case '}', ']':
		s.depth--
		if s.depth <= 0 {
			s.stop = true // the object ended
		}
	case '"':
		s.inString = true
		switch {
		case s.depth == 1 && s.wantKey:
			s.wantKey, s.inKey, s.long = false, true, false
			s.key = s.key[:0]
		case value && s.isID && s.id == nil:
			s.capturing = "string"
			s.keep(c)
		}
	case ':':
		if s.depth == 1 {
			s.wantVal = true
		}
	case ',':
		if s.depth == 1 {
			s.wantKey, s.isID = true, false
		}
	default:
		if value && s.isID && s.id == nil && (c == '-' || c >= '0' && c <= '9') {
			s.capturing = "number"
			s.keep(c)
		}
	}
}

// keyEnded notes a top-level key just read.
func (s *idScan) keyEnded() {
	if s.long {
		return
	}
	switch string(s.key) {
	case "id":
		s.isID = true
	case "method":
		s.request = true
	case "result", "error":
		s.response = true
		s.stop = true
	}
	s.settle()
}

// keep appends c to the id being read, giving the id up past maxIDBytes.
func (s *idScan) keep(c byte) {
	if len(s.id) >= maxIDBytes {
		s.capturing = ""
		s.id = []byte{} // read, and unusable
		return
	}
	s.id = append(s.id, c)
}

// idEnded notes that the id's value is complete.
func (s *idScan) idEnded() {
	if s.id == nil {
		s.id = []byte{}
	}
	s.settle()
}

func (s *idScan) settle() {
	if s.request && len(s.id) > 0 && s.capturing == "" {
		s.stop = true
	}
}

// decided reports whether the answer is known before the line ends.
func (s *idScan) decided() bool { return s.stop }

// answerID is the id to answer the line with: the request's id when it
// was read whole and is a string or a number, null otherwise.
func (s *idScan) answerID() json.RawMessage {
	if !s.request || s.response || s.capturing != "" || len(s.id) == 0 || !json.Valid(s.id) {
		return nullID
	}
	return echoID(s.id)
}
