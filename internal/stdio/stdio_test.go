package stdio_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/foldagent/foldagent/internal/stdio"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wait bounds every read of the server's output: a reply that never comes
// fails the test instead of hanging it.
const wait = 10 * time.Second

// reply is one line of the server's output, decoded.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// session is an SDK server with one tool, served over a Transport on
// pipes; the test plays the client by writing lines and reading replies.
type session struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string

	stopped chan struct{} // closed when Run returned; runErr is then set
	runErr  error
}

func serve(t *testing.T, maxLine int) *session {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	type echoIn struct {
		Text string `json:"text"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Answers with the text it is given."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, lines: make(chan string), stopped: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		err := srv.Run(ctx, &stdio.Transport{In: inR, Out: outW, MaxLineBytes: maxLine})
		outW.Close()
		s.runErr = err
		close(s.stopped)
	}()
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		for range s.lines {
		}
		<-s.stopped
	})
	s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"pipe","version":"0"}}}` + "\n")
	if r := s.next(); string(r.ID) != `"init"` || r.Error != nil {
		t.Fatalf("initialize: %+v", r)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	return s
}

// send writes raw bytes to the server's input as one write.
func (s *session) send(raw string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, raw); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// next returns the server's next output line, which must be one JSON-RPC
// 2.0 message.
func (s *session) next() reply {
	s.t.Helper()
	select {
	case line, ok := <-s.lines:
		if !ok {
			<-s.stopped
			s.t.Fatalf("the server's output ended; Run returned %v", s.runErr)
		}
		// encoding/json's syntax check lets bytes that are not UTF-8
		// through; JSON text is UTF-8 (RFC 8259), so they are checked here.
		if !utf8.ValidString(line) {
			s.t.Fatalf("output line is not UTF-8, so not JSON text: %q", line)
		}
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.JSONRPC != "2.0" {
			s.t.Fatalf("output line is not a JSON-RPC 2.0 message: %q", line)
		}
		if (r.Result == nil) == (r.Error == nil) {
			s.t.Fatalf("output line is not a response with exactly one of result and error: %q", line)
		}
		return r
	case <-time.After(wait):
		s.t.Fatalf("no reply within %v", wait)
		return reply{}
	}
}

// wantError reads the next line and checks it is an error with code and id.
func (s *session) wantError(code int64, id string) reply {
	s.t.Helper()
	r := s.next()
	if r.Error == nil || r.Error.Code != code || string(r.ID) != id {
		s.t.Fatalf("want error %d with id %s, got id %s error %+v result %s", code, id, r.ID, r.Error, r.Result)
	}
	if r.Error.Message == "" {
		s.t.Fatalf("error %d has no message", code)
	}
	return r
}

// ping sends a ping with id and checks it is answered: proof the session
// is still serving.
func (s *session) ping(id int) {
	s.t.Helper()
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", id))
	if r := s.next(); string(r.ID) != fmt.Sprint(id) || r.Error != nil {
		s.t.Fatalf("ping %d: id %s error %+v", id, r.ID, r.Error)
	}
}

func TestGarbageLineIsAParseErrorAndServingGoesOn(t *testing.T) {
	s := serve(t, 0)
	s.send("hello, is this thing on?\n")
	s.wantError(jsonrpc.CodeParseError, "null")
	s.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} trailing\n")
	s.wantError(jsonrpc.CodeParseError, "null")
	s.send("\x00\xff\xfe\n")
	s.wantError(jsonrpc.CodeParseError, "null")
	s.ping(2)
}

func TestJSONThatIsNotJSONRPCIsAnInvalidRequest(t *testing.T) {
	s := serve(t, 0)
	for _, c := range []struct{ line, id string }{
		{`{"foo":1}`, "null"},
		{`{"id":7,"method":"ping"}`, "7"},                     // no "jsonrpc":"2.0"
		{`{"jsonrpc":"1.0","id":"a","method":"ping"}`, `"a"`}, // wrong version
		{`{"jsonrpc":"2.0","id":"b","method":5}`, `"b"`},      // method not a string
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null"},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, "null"},
		{`{"jsonrpc":"2.0"}`, "null"}, // neither a request nor a response
		{`42`, "null"},
		{`"ping"`, "null"},
		{`null`, "null"},
	} {
		s.send(c.line + "\n")
		s.wantError(jsonrpc.CodeInvalidRequest, c.id)
	}
	s.ping(3)
}

// An id holding bytes that are not UTF-8 is answered with that id
// re-encoded (each such byte read as U+FFFD, as an SDK client decodes it),
// never echoed raw: every reply is JSON text. The same holds for an
// over-long line, whose id is read as the line streams in.
func TestIDThatIsNotUTF8IsAnsweredAsValidJSON(t *testing.T) {
	s := serve(t, 1024)
	s.send("{\"jsonrpc\":\"1.0\",\"id\":\"a\xffb\",\"method\":\"ping\"}\n")
	s.wantError(jsonrpc.CodeInvalidRequest, "\"a\ufffdb\"")
	s.send("{\"jsonrpc\":\"2.0\",\"id\":\"c\xfe\",\"method\":\"ping\",\"params\":{\"pad\":\"" + strings.Repeat("x", 3000) + "\"}}\n")
	s.wantError(jsonrpc.CodeInvalidRequest, "\"c\ufffd\"")
	s.ping(5)
}

func TestBatchIsAnInvalidRequest(t *testing.T) {
	s := serve(t, 0)
	s.send(`[{"jsonrpc":"2.0","id":10,"method":"ping"},{"jsonrpc":"2.0","id":11,"method":"ping"}]` + "\n")
	s.wantError(jsonrpc.CodeInvalidRequest, "null")
	s.send("[]\n")
	s.wantError(jsonrpc.CodeInvalidRequest, "null")
	// Neither element of the batch was served: the next reply is this ping's.
	s.ping(12)
}

func TestTruncatedLineDoesNotSwallowTheNext(t *testing.T) {
	s := serve(t, 0)
	s.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"ec` + "\n" +
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"whole"}}}` + "\n")
	s.wantError(jsonrpc.CodeParseError, "null")
	r := s.next()
	if string(r.ID) != "5" || r.Error != nil || !strings.Contains(string(r.Result), `"whole"`) {
		t.Fatalf("the request after the truncated line: id %s error %+v result %s", r.ID, r.Error, r.Result)
	}
}

func TestEmptyAndCRLFLines(t *testing.T) {
	s := serve(t, 0)
	// Blank lines get no reply: the next line out is the ping's answer.
	s.send("\n\r\n   \n\t\r\n")
	s.send(`{"jsonrpc":"2.0","id":6,"method":"ping"}` + "\r\n")
	if r := s.next(); string(r.ID) != "6" || r.Error != nil {
		t.Fatalf("CRLF ping: id %s error %+v", r.ID, r.Error)
	}
	s.send("garbage\r\n")
	s.wantError(jsonrpc.CodeParseError, "null")
	s.ping(7)
}

func TestMultiByteCharacterSplitAcrossWrites(t *testing.T) {
	s := serve(t, 0)
	const text = "café 🎉 日本"
	line := `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + text + `"}}}` + "\n"
	// Split inside the four bytes of the emoji, and again inside 日.
	first := strings.Index(line, "🎉") + 2
	second := strings.Index(line, "日") + 1
	s.send(line[:first])
	s.send(line[first:second])
	s.send(line[second:])
	r := s.next()
	var res mcp.CallToolResult
	if err := json.Unmarshal(r.Result, &res); err != nil || string(r.ID) != "8" {
		t.Fatalf("echo: id %s error %+v result %s", r.ID, r.Error, r.Result)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != text {
		t.Fatalf("echo came back as %q, want %q", got, text)
	}
}

func TestOverLongLineIsAnsweredOnceAndDiscarded(t *testing.T) {
	const limit = 1024
	s := serve(t, limit)
	// A valid request, so only its length is wrong, in several writes.
	long := `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("x", 5000) + `"}}}` + "\n"
	for i := 0; i < len(long); i += 700 {
		s.send(long[i:min(i+700, len(long))])
	}
	// Answered with the request's id, so the client's call ends.
	r := s.wantError(jsonrpc.CodeInvalidRequest, "20")
	var data struct {
		MaxLineBytes int `json:"maxLineBytes"`
	}
	if err := json.Unmarshal(r.Error.Data, &data); err != nil || data.MaxLineBytes != limit {
		t.Fatalf("error data %s, want maxLineBytes %d", r.Error.Data, limit)
	}
	// One reply for the whole line, and the request in it was not served:
	// the next reply is the ping's.
	s.ping(21)

	// A line of exactly the limit (CRLF-terminated, the CR not counted) is
	// served; one byte more is not.
	exact := func(id int, n int) string {
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"_meta":{"pad":"`, id)
		tail := `"}}}`
		return head + strings.Repeat("p", n-len(head)-len(tail)) + tail
	}
	s.send(exact(22, limit) + "\r\n")
	if r := s.next(); string(r.ID) != "22" || r.Error != nil {
		t.Fatalf("line of exactly the limit: id %s error %+v", r.ID, r.Error)
	}
	s.send(exact(23, limit+1) + "\n")
	s.wantError(jsonrpc.CodeInvalidRequest, "23")
	s.ping(24)
}

// A long line is answered with the id of the request in it wherever the id
// is (here after the params, as the TypeScript SDK writes it), and with
// null when the line is not a request or its id cannot be read; an id
// inside params is not the message's.
func TestOverLongLineIsAnsweredWithTheRequestsID(t *testing.T) {
	const limit = 1024
	s := serve(t, limit)
	pad := strings.Repeat("x", 3000)
	for _, c := range []struct{ line, id string }{
		{`{"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + pad + `"}},"jsonrpc":"2.0","id":"late"}`, `"late"`},
		{`{"method":"ping","params":{"_meta":{"t":"a \"id\": 3, \\"}, "id": 4, "pad":"` + pad + `"},"jsonrpc":"2.0","id":-5}`, "-5"},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"id":9,"pad":"` + pad + `"}}`, "null"},
		{`{"jsonrpc":"2.0","id":6,"result":{"pad":"` + pad + `"}}`, "null"},
		{`{"jsonrpc":"2.0","id":{"n":7},"method":"ping","params":{"pad":"` + pad + `"}}`, "null"},
		{`[{"jsonrpc":"2.0","id":8,"method":"ping","params":{"pad":"` + pad + `"}}]`, "null"},
		{pad, "null"},
	} {
		s.send(c.line + "\n")
		s.wantError(jsonrpc.CodeInvalidRequest, c.id)
	}
	s.ping(40)

	// Once the id and the method are read, the answer goes out without
	// waiting for the end of the line (the line is read in buffers of
	// 64 KiB: this one is longer).
	huge := strings.Repeat("x", 100<<10)
	s.send(`{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"pad":"` + huge)
	s.wantError(jsonrpc.CodeInvalidRequest, "41")
	s.send(huge + `"}}` + "\n")
	s.ping(42)
}

func TestEOFEndsTheSessionCleanly(t *testing.T) {
	s := serve(t, 0)
	s.ping(30)
	s.in.Close()
	select {
	case <-s.stopped:
		if s.runErr != nil {
			t.Fatalf("Run after end of input: %v", s.runErr)
		}
	case <-time.After(wait):
		t.Fatal("Run did not return after end of input")
	}
	if line, ok := <-s.lines; ok {
		t.Fatalf("output after end of input: %q", line)
	}
}

// connect returns a bare Connection over pipes, for tests below the SDK.
func connect(t *testing.T, out io.Writer) (mcp.Connection, *io.PipeWriter) {
	t.Helper()
	inR, inW := io.Pipe()
	c, err := (&stdio.Transport{In: inR, Out: out}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); inW.Close() })
	return c, inW
}

// read calls c.Read with a bound.
func read(t *testing.T, c mcp.Connection) (jsonrpc.Message, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	msg, err := c.Read(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Read blocked for %v", wait)
	}
	return msg, err
}

func TestFinalLineWithoutNewlineIsReadThenEOF(t *testing.T) {
	c, in := connect(t, io.Discard)
	go func() {
		io.WriteString(in, `{"jsonrpc":"2.0","id":40,"method":"ping"}`)
		in.Close()
	}()
	msg, err := read(t, c)
	if req, ok := msg.(*jsonrpc.Request); err != nil || !ok || req.Method != "ping" || req.ID.Raw() != int64(40) {
		t.Fatalf("first Read: %#v, %v", msg, err)
	}
	if _, err := read(t, c); err != io.EOF {
		t.Fatalf("Read after the last line: %v, want io.EOF", err)
	}
	if _, err := read(t, c); err != io.EOF {
		t.Fatalf("second Read after the last line: %v, want io.EOF", err)
	}
}

func TestCloseReleasesABlockedRead(t *testing.T) {
	c, _ := connect(t, io.Discard)
	got := make(chan error, 1)
	go func() {
		_, err := c.Read(context.Background())
		got <- err
	}()
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case err := <-got:
		if err != io.EOF {
			t.Fatalf("Read after Close: %v, want io.EOF", err)
		}
	case <-time.After(wait):
		t.Fatal("Close did not release Read")
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("output is gone") }

func TestFailedErrorReplyEndsTheConnection(t *testing.T) {
	c, in := connect(t, failingWriter{})
	go io.WriteString(in, "garbage\n")
	if _, err := read(t, c); err == nil || err == io.EOF || !strings.Contains(err.Error(), "output is gone") {
		t.Fatalf("Read when the error reply cannot be written: %v", err)
	}
}

// lockedBuffer collects writes, each kept whole.
type lockedBuffer struct {
	mu     sync.Mutex
	writes []string
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes = append(b.writes, string(p))
	return len(p), nil
}

func TestWritesAndErrorRepliesAreWholeLines(t *testing.T) {
	var out lockedBuffer
	c, in := connect(t, &out)
	const writers, each, bad = 8, 50, 100
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id, _ := jsonrpc.MakeID(float64(w*each + i))
				resp := &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"ok":"line\nbreak"}`)}
				if err := c.Write(context.Background(), resp); err != nil {
					t.Errorf("Write: %v", err)
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		io.WriteString(in, strings.Repeat("not json\n", bad))
		io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	}()
	// The notification arrives after every bad line was answered.
	if msg, err := read(t, c); err != nil || msg.(*jsonrpc.Request).Method != "notifications/initialized" {
		t.Fatalf("Read: %#v, %v", msg, err)
	}
	wg.Wait()
	out.mu.Lock()
	defer out.mu.Unlock()
	if len(out.writes) != writers*each+bad {
		t.Fatalf("%d writes, want %d", len(out.writes), writers*each+bad)
	}
	parseErrors := 0
	for _, w := range out.writes {
		if strings.Count(w, "\n") != 1 || !strings.HasSuffix(w, "\n") {
			t.Fatalf("a write is not exactly one line: %q", w)
		}
		var r reply
		if err := json.Unmarshal([]byte(w), &r); err != nil || r.JSONRPC != "2.0" {
			t.Fatalf("a write is not a JSON-RPC message: %q", w)
		}
		if r.Error != nil && r.Error.Code == jsonrpc.CodeParseError {
			parseErrors++
		}
	}
	if parseErrors != bad {
		t.Fatalf("%d parse errors answered, want %d", parseErrors, bad)
	}
}
