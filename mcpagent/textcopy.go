package mcpagent

import (
	"bytes"
	"encoding/json"
)

// copyLeavesOut names the members of a reply's data that its text copy leaves
// out: what the request itself says (the capability is the tool's name,
// the tag its Message type, the invocation the call's own id and
// transport). structuredContent keeps them for a program.
var copyLeavesOut = [...]string{"capability", "tag", "invocation"}

// textCopy is the JSON text block a result repeats its structured content
// in, for a client that reads only content (the 2025-11-25 revision asks
// a tool returning structured content to repeat it as text; hosts that
// feed a model only content, as several do, would otherwise lose every
// value a call returns). It carries every fact of data but what the
// request and the authored text (the first block) already say: the
// envelope, and a refusal's message when it is that text. "" when nothing
// is left. A tool result is most of what a model reads of a task, and the
// envelope a large part of a small one.
func textCopy(text string, data json.RawMessage) string {
	if len(data) == 0 {
		return ""
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return string(data) // not an object: repeated as it is
	}
	for _, k := range copyLeavesOut {
		delete(members, k)
	}
	var message string
	if json.Unmarshal(members["message"], &message) == nil && message == text {
		delete(members, "message")
	}
	if len(members) == 0 {
		return ""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the values as structuredContent has them
	if err := enc.Encode(members); err != nil {
		return string(data) // cannot happen: the members were decoded from JSON
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
