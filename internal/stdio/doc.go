// Package stdio holds the MCP transport the adapters serve standard input
// and output with: newline-delimited JSON-RPC in both directions, on a
// connection that survives bad input.
//
// The SDK's own stdio transport decodes a JSON stream rather than lines
// and ends the session on the first value it cannot use, so one stray line
// from a client (or a person typing at the process) stops the server
// without a word, and a value cut short swallows the next request. Here
// every line is judged on its own:
//
//   - a line that is not JSON is answered with a JSON-RPC parse error
//     (-32700) whose id is null;
//   - JSON that is not one JSON-RPC message (an object without
//     "jsonrpc":"2.0", a bad id, a bare number) is answered with an
//     invalid request error (-32600) carrying the line's id when one can be
//     read, null otherwise;
//   - a batch (a JSON array) is answered with -32600 and id null: MCP has
//     had no batching since revision 2025-06-18, and the adapters do not
//     negotiate an older one;
//   - a line longer than the limit (DefaultMaxLineBytes unless set) is
//     discarded up to its newline, read on only for its id, in constant
//     memory, and answered once with -32600: carrying the id when the line
//     is a request (a top-level "method") whose top-level "id" is a string
//     or a number, wherever in the line it is, so the client's call ends;
//     null otherwise (a response's id is the server's own). The answer goes
//     out as soon as it is known (the id and the method read), or else
//     when the line ends;
//
// and serving goes on with the next line. Lines that are empty or only
// whitespace are skipped, a carriage return before the newline is
// ignored, and a final line without a newline at end of input is still
// read. Bytes are framed before they are decoded, so a multi-byte UTF-8
// character split across writes arrives whole.
//
// Everything written goes out as one line per message, and the error
// replies above are written on the same writer under the same lock as the
// SDK's own messages, so the output never carries anything but protocol.
package stdio
