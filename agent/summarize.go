package agent

// Summarize gives the one wording every adapter uses to report a
// dispatched invocation, so that MCP, WebMCP and A2A tell an agent the same
// thing the same way. ok is false only for a completion that failed.
//
//   - no completion contract: "Dispatched <Tag>" (validated dispatch is
//     the boundary: the Message was handed to the application);
//   - completed on a Message: "Completed: <Tag of that Message>";
//   - completed on state: "Completed: <Tag> (its condition on state holds)";
//   - failed: "Failed: <Tag of the failure Message>".
//
// The text holds only Go type names, never Model data or input.
func Summarize(r Result) (ok bool, text string) {
	switch c := r.Completion; {
	case c == nil:
		return true, "Dispatched " + r.Tag
	case c.Status == Failed:
		return false, "Failed: " + c.Tag
	case c.Tag == "":
		return true, "Completed: " + r.Tag + " (its condition on state holds)"
	default:
		return true, "Completed: " + c.Tag
	}
}
