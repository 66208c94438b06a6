package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes is the longest line, not counting its newline, that
// a Transport reads when MaxLineBytes is zero: 4 MiB. The messages an MCP
// client sends a server (tool arguments, resource reads, answers to the
// server's own requests) are far smaller; the bound keeps one line that
// never ends from growing the process without limit.
const DefaultMaxLineBytes = 4 << 20

// Transport is an mcp.Transport over a reader and a writer, one JSON-RPC
// message per line in each direction. Like the SDK's transports it is
// meant for one call to Connect.
type Transport struct {
	// In is read for the client's messages. Close closes it when it is an
	// io.Closer, which is how a Read blocked on it is released.
	In io.Reader
	// Out receives the server's messages, one line each. It is never
	// closed: standard output belongs to the process.
	Out io.Writer
	// MaxLineBytes bounds one incoming line, not counting its newline
	// (a carriage return before the newline does not count either).
	// Zero means DefaultMaxLineBytes.
	MaxLineBytes int
	// Logger is told about each line answered with an error (its code and
	// length, never its content). Nil means nothing is logged.
	Logger *slog.Logger
}

// Connect starts reading In and returns the connection. It never fails.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxLineBytes
	if limit <= 0 {
		limit = DefaultMaxLineBytes
	}
	c := &conn{
		in:       t.In,
		out:      t.Out,
		limit:    limit,
		log:      t.Logger,
		incoming: make(chan jsonrpc.Message),
		readDone: make(chan struct{}),
		closed:   make(chan struct{}),
	}
	go c.readLoop()
	return c, nil
}

// conn is the Connection. One goroutine reads In (a blocked read of
// standard input cannot otherwise be abandoned when the SDK closes the
// connection); it hands each good message to Read and answers each bad
// line itself.
type conn struct {
	in    io.Reader
	out   io.Writer
	limit int
	log   *slog.Logger

	writeMu sync.Mutex // one message per Write of out, never interleaved

	incoming chan jsonrpc.Message
	readDone chan struct{} // closed after the reader stopped; readErr is set
	readErr  error

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// Read returns the next message from the client. When input has ended it
// returns io.EOF; after Close it returns io.EOF as well.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case msg := <-c.incoming:
		return msg, nil
	case <-c.readDone:
		select {
		case <-c.closed:
			// Close closes In after closed, so a read error that
			// Close caused is reported as the close it is.
			return nil, io.EOF
		default:
			return nil, c.readErr
		}
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write sends msg as one line. Concurrent calls are serialized with each
// other and with the reader's error replies.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a JSON-RPC message: %w", err)
	}
	return c.writeLine(data)
}

// Close releases Read and closes In when it can be closed. It may be
// called more than once.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		if cl, ok := c.in.(io.Closer); ok {
			c.closeErr = cl.Close()
		}
	})
	return c.closeErr
}

// SessionID is empty: a stdio connection is its own session.
func (c *conn) SessionID() string { return "" }

// writeLine writes data and a newline in one Write, under the lock.
// EncodeMessage and json.Marshal escape control characters inside
// strings, so data itself holds no newline.
func (c *conn) writeLine(data []byte) error {
	line := make([]byte, 0, len(data)+1)
	line = append(line, data...)
	line = append(line, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(line)
	return err
}

// keptLineCap is the largest line buffer kept between lines; after a
// longer line the buffer is dropped so one big message does not pin its
// memory for the rest of the session.
const keptLineCap = 64 << 10

// readLoop frames In into lines until input ends, a read or a reply
// fails, or the connection is closed.
func (c *conn) readLoop() {
	err := c.frame()
	c.readErr = err
	close(c.readDone)
}

// frame reads lines and passes each to c.line; it returns the error that
// ends the connection (io.EOF when input ended).
func (c *conn) frame() error {
	br := bufio.NewReaderSize(c.in, keptLineCap)
	var (
		line []byte
		// long is set while the current line is past the limit: it is
		// scanned for its id and dropped up to its newline.
		long *idScan
		// answered: the current long line has had its reply.
		answered bool
	)
	for {
		frag, err := br.ReadSlice('\n')
		ended := err == nil
		if ended {
			frag = bytes.TrimSuffix(frag[:len(frag)-1], []byte{'\r'})
		}
		switch {
		case long != nil:
			long.feed(frag)
		case len(line)+len(frag) > c.limit:
			long = &idScan{}
			long.feed(line)
			long.feed(frag)
			line = nil
		default:
			line = append(line, frag...)
		}
		// A long line is answered as soon as its reply is known, or when
		// it ends: with the request's id when one could be read.
		if long != nil && !answered && (long.decided() || ended || errors.Is(err, io.EOF)) {
			answered = true
			if err := c.reject(tooLongReply(c.limit, long.answerID()), "line too long", -1); err != nil {
				return err
			}
		}
		switch {
		case ended:
			if long == nil {
				if err := c.line(line); err != nil {
					return err
				}
			}
			long, answered = nil, false
			if cap(line) > keptLineCap {
				line = nil
			}
			line = line[:0]
		case errors.Is(err, bufio.ErrBufferFull):
			// The line goes on past the buffer; keep reading it.
		case errors.Is(err, io.EOF):
			if long == nil && len(line) > 0 {
				if err := c.line(line); err != nil {
					return err
				}
			}
			return io.EOF
		default:
			return err
		}
	}
}

// line judges one complete line: a message goes to Read, anything else is
// answered here. It returns an error only when the connection must end.
func (c *conn) line(raw []byte) error {
	raw = bytes.Trim(raw, " \t\r")
	if len(raw) == 0 {
		return nil
	}
	msg, reply, what := decode(raw)
	if reply != nil {
		return c.reject(reply, what, len(raw))
	}
	select {
	case c.incoming <- msg:
		return nil
	case <-c.closed:
		return io.EOF
	}
}

// reject writes an error reply for a line that could not be served and
// logs it. A failed write ends the connection: the client can no longer be
// answered.
func (c *conn) reject(reply []byte, what string, n int) error {
	if c.log != nil {
		args := []any{"problem", what}
		if n >= 0 {
			args = append(args, "bytes", n)
		}
		c.log.Warn("stdio: answered an input line with a JSON-RPC error", args...)
	}
	if err := c.writeLine(reply); err != nil {
		return fmt.Errorf("answering a bad input line: %w", err)
	}
	return nil
}

// decode turns a non-empty line into a message, or into the error reply it
// gets and a short description of the problem for the log.
func decode(line []byte) (jsonrpc.Message, []byte, string) {
	if !json.Valid(line) {
		return nil, errorReply(nullID, jsonrpc.CodeParseError, msgNotJSON, nil), "not JSON"
	}
	if line[0] == '[' {
		return nil, errorReply(nullID, jsonrpc.CodeInvalidRequest, msgBatch, nil), "batch"
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, errorReply(readableID(line), jsonrpc.CodeInvalidRequest, msgNotJSONRPC, nil), "not a JSON-RPC message"
	}
	return msg, nil, ""
}

// The error replies' messages. They name the problem and what to send
// instead; the line itself never appears in them.
const (
	msgNotJSON    = "Parse error: this line is not JSON. Send one JSON-RPC 2.0 message per line."
	msgBatch      = "Invalid request: batches are not supported. Send each message on its own line."
	msgNotJSONRPC = `Invalid request: this line is not a JSON-RPC 2.0 request, notification or response (it needs "jsonrpc":"2.0", and an id that is a string or a number).`
	msgTooLong    = "Invalid request: this line is longer than the server reads (see maxLineBytes in the error data); it was discarded up to its newline."
)

var nullID = json.RawMessage("null")

// readableID returns the line's "id" when the line is an object whose id
// is a string or a number, and null otherwise.
func readableID(line []byte) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return nullID
	}
	return echoID(fields["id"])
}

// echoID returns the id to answer with, given the bytes of a well-formed
// JSON id: a number as it was sent, a string re-encoded, and null for
// anything else. A string is re-encoded because the line may hold bytes
// that are not UTF-8 (JSON's syntax lets them through, encoding/json reads
// each as U+FFFD): echoed raw, they would make the reply something that is
// not JSON text. Re-encoded, the reply is valid UTF-8 JSON and its id is
// the one an SDK client decoding the request would have read.
func echoID(id []byte) json.RawMessage {
	if len(id) == 0 {
		return nullID
	}
	switch id[0] {
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return json.RawMessage(id)
	case '"':
		if utf8.Valid(id) {
			return json.RawMessage(id)
		}
		var s string
		if json.Unmarshal(id, &s) != nil {
			return nullID
		}
		out, err := json.Marshal(s)
		if err != nil {
			return nullID
		}
		return out
	}
	return nullID
}

// tooLongReply is the reply to a line past limit, carrying id.
func tooLongReply(limit int, id json.RawMessage) []byte {
	data := fmt.Appendf(nil, `{"maxLineBytes":%d}`, limit)
	return errorReply(id, jsonrpc.CodeInvalidRequest, msgTooLong, data)
}

// errorReply encodes a JSON-RPC error response. It is built here rather
// than with jsonrpc.EncodeMessage because a null id must appear on the
// wire as "id":null, which the SDK's encoder omits.
func errorReply(id json.RawMessage, code int64, message string, data json.RawMessage) []byte {
	type wireError struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	}
	out, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, message, data}})
	if err != nil {
		// Every part is a constant or JSON already validated by the
		// caller; fall back to null rather than write nothing.
		out, _ = json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   wireError       `json:"error"`
		}{"2.0", nullID, wireError{Code: code, Message: message}})
	}
	return out
}
