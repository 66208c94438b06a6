package agent_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// auditLine is e as the sink writes it, '\n' included.
func auditLine(t *testing.T, e agent.AuditEntry) []byte {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func auditEntry(id, input string) agent.AuditEntry {
	e := agent.AuditEntry{
		At:         time.UnixMilli(1767323045000),
		Invocation: id,
		Transport:  agent.Transport("mcp"),
		Capability: "create_todo",
		Decision:   agent.DecisionDispatched,
		Outcome:    agent.OutcomeDispatched,
	}
	if input != "" {
		e.Input = json.RawMessage(input)
	}
	return e
}

func readAuditFile(t *testing.T, path string) ([]agent.AuditEntry, []agent.TornLine, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return agent.ReadJSONLines(f)
}

func invocations(es []agent.AuditEntry) []string {
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.Invocation
	}
	return ids
}

// A tail cut anywhere (inside a multi-byte character, an escape, a
// nested input, right after the first byte, just before the '\n') is
// reported as torn, not as an error; reopening ends it with '\n', keeping
// the bytes, so the next entry stands on its own line.
func TestJSONLinesTornTailReopen(t *testing.T) {
	first := auditLine(t, auditEntry("a", ""))
	torn := auditLine(t, auditEntry("b", `{"title":"Crème brûlée 日本","note":"tab\t\u00e9"}`))
	at := func(sub string) int {
		i := bytes.Index(torn, []byte(sub))
		if i < 0 {
			t.Fatalf("%q not in %s", sub, torn)
		}
		return i
	}
	cuts := map[string]int{
		"first byte":           1,
		"inside a key":         at(`"invocation"`) + 4,
		"mid two-byte char":    at("è") + 1,
		"mid three-byte char":  at("日") + 2,
		"after the three-byte": at("日") + 3,
		"mid escape":           at(`\t`) + 1,
		"inside nested input":  at(`"note":`) + 7,
		"half":                 len(torn) / 2,
		"before the newline":   len(torn) - 1,
	}
	for name, cut := range cuts {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			fragment := torn[:cut]
			if err := os.WriteFile(path, append(bytes.Clone(first), fragment...), 0o600); err != nil {
				t.Fatal(err)
			}
			complete := cut == len(torn)-1 // all but the '\n': the entry itself is whole

			entries, tornLines, err := readAuditFile(t, path)
			if err != nil {
				t.Fatalf("a torn final line must be reported, not fail: %v", err)
			}
			wantIDs := []string{"a"}
			var wantTorn []agent.TornLine
			if complete {
				wantIDs = []string{"a", "b"}
			} else {
				wantTorn = []agent.TornLine{{Line: 2, Offset: int64(len(first)), Length: cut}}
			}
			if got := invocations(entries); !reflect.DeepEqual(got, wantIDs) {
				t.Fatalf("before reopen: entries %v, want %v", got, wantIDs)
			}
			if !reflect.DeepEqual(tornLines, wantTorn) {
				t.Fatalf("before reopen: torn %+v, want %+v", tornLines, wantTorn)
			}

			sink, err := agent.OpenJSONLinesSink(path, agent.JSONLinesOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := sink.Record(auditEntry("c", `{"x":"ü"}`)); err != nil {
				t.Fatal(err)
			}
			if err := sink.Close(); err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// The torn bytes are kept as evidence, ended by one '\n'.
			want := slicesConcat(first, fragment, []byte("\n"), auditLine(t, auditEntry("c", `{"x":"ü"}`)))
			if !bytes.Equal(raw, want) {
				t.Fatalf("file after reopen:\n%q\nwant\n%q", raw, want)
			}
			entries, tornLines, err = readAuditFile(t, path)
			if err != nil {
				t.Fatalf("after reopen: %v", err)
			}
			if got := invocations(entries); !reflect.DeepEqual(got, append(wantIDs, "c")) {
				t.Fatalf("after reopen: entries %v", got)
			}
			if !reflect.DeepEqual(tornLines, wantTorn) {
				t.Fatalf("after reopen: torn %+v, want %+v", tornLines, wantTorn)
			}
			if string(entries[len(entries)-1].Input) != `{"x":"ü"}` {
				t.Fatalf("input = %s", entries[len(entries)-1].Input)
			}

			// A file that ends in '\n' is left as it is.
			sink, err = agent.OpenJSONLinesSink(path, agent.JSONLinesOptions{SyncEveryEntry: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := sink.Close(); err != nil {
				t.Fatal(err)
			}
			if again, _ := os.ReadFile(path); !bytes.Equal(again, raw) {
				t.Fatalf("reopening a whole file changed it:\n%q", again)
			}
		})
	}
}

func slicesConcat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// An empty or missing file is opened without writing anything.
func TestJSONLinesSinkOpensEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	for range 2 {
		sink, err := agent.OpenJSONLinesSink(path, agent.JSONLinesOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := sink.Close(); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
			t.Fatalf("stat = %v, %v", fi, err)
		}
	}
}

// What the reader accepts, reports and refuses.
func TestJSONLinesScannerClassifiesLines(t *testing.T) {
	a := string(auditLine(t, auditEntry("a", "")))
	b := string(auditLine(t, auditEntry("b", `{"k":[1,2]}`)))
	fragment := b[:40]
	for _, tc := range []struct {
		name    string
		file    string
		ids     []string
		torn    []agent.TornLine
		errLine int // the *AuditLineError's line, 0 for none
	}{
		{name: "empty", file: ""},
		{name: "whole", file: a + b, ids: []string{"a", "b"}},
		{name: "last line without newline", file: a + strings.TrimSuffix(b, "\n"), ids: []string{"a", "b"}},
		{name: "blank and CRLF lines", file: "\n" + strings.TrimSuffix(a, "\n") + "\r\n  \n" + b, ids: []string{"a", "b"}},
		{name: "torn tail", file: a + fragment, ids: []string{"a"},
			torn: []agent.TornLine{{Line: 2, Offset: int64(len(a)), Length: 40}}},
		{name: "undecodable tail without newline", file: a + "\x00\x00\x00", ids: []string{"a"},
			torn: []agent.TornLine{{Line: 2, Offset: int64(len(a)), Length: 3}}},
		{name: "terminated torn line in the middle", file: a + fragment + "\n" + b, ids: []string{"a", "b"},
			torn: []agent.TornLine{{Line: 2, Offset: int64(len(a)), Length: 40}}},
		{name: "glued line", file: a + fragment + b + a, ids: []string{"a", "b", "a"},
			torn: []agent.TornLine{{Line: 2, Offset: int64(len(a)), Length: 40}}},
		{name: "garbage in the middle", file: a + "not json\n" + b, ids: []string{"a"}, errLine: 2},
		{name: "terminated garbage at the end", file: a + b + "}{\n", ids: []string{"a", "b"}, errLine: 3},
		{name: "wrong type", file: a + `{"at":"noon"}` + "\n" + b, ids: []string{"a"}, errLine: 2},
		{name: "two values on a line", file: a + `{"at":1}{"at":2}` + "\n", ids: []string{"a"}, errLine: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entries, torn, err := agent.ReadJSONLines(strings.NewReader(tc.file))
			if got := invocations(entries); !reflect.DeepEqual(got, tc.ids) && !(len(got) == 0 && len(tc.ids) == 0) {
				t.Errorf("entries %v, want %v", got, tc.ids)
			}
			if !reflect.DeepEqual(torn, tc.torn) {
				t.Errorf("torn %+v, want %+v", torn, tc.torn)
			}
			var le *agent.AuditLineError
			switch {
			case tc.errLine == 0 && err != nil:
				t.Errorf("err = %v", err)
			case tc.errLine != 0 && !errors.As(err, &le):
				t.Errorf("err = %v, want *AuditLineError", err)
			case tc.errLine != 0 && le.Line != tc.errLine:
				t.Errorf("error at line %d, want %d: %v", le.Line, tc.errLine, err)
			case tc.errLine != 0 && le.Err == nil:
				t.Errorf("error without a cause: %v", err)
			}
		})
	}
}

type failingReader struct{ after io.Reader }

var errDiskGone = errors.New("disk gone")

func (r failingReader) Read(p []byte) (int, error) {
	n, err := r.after.Read(p)
	if err == io.EOF {
		return n, errDiskGone
	}
	return n, err
}

// The scanner streams, reports torn lines as it meets them, and passes a
// reader's failure through.
func TestJSONLinesScannerStreams(t *testing.T) {
	a := auditLine(t, auditEntry("a", ""))
	frag := a[:10]
	file := slicesConcat(a, frag, []byte("\n"), a)
	sc := agent.NewJSONLinesScanner(failingReader{bytes.NewReader(file)})
	if !sc.Scan() || sc.Entry().Invocation != "a" || len(sc.Torn()) != 0 {
		t.Fatalf("first: %+v, torn %v, err %v", sc.Entry(), sc.Torn(), sc.Err())
	}
	if !sc.Scan() || len(sc.Torn()) != 1 {
		t.Fatalf("second: torn %v, err %v", sc.Torn(), sc.Err())
	}
	if sc.Scan() {
		t.Fatal("scan past a failing reader")
	}
	if !errors.Is(sc.Err(), errDiskGone) {
		t.Fatalf("err = %v", sc.Err())
	}
	if sc.Scan() {
		t.Fatal("scan after the end")
	}
}

// The environment variables that put the test binary in helper mode.
const (
	auditHelperEnv = "FOLDAGENT_AUDIT_HELPER" // the audit file's path
	auditRunEnv    = "FOLDAGENT_AUDIT_RUN"    // the run's number, for invocation ids
	auditBigEnv    = "FOLDAGENT_AUDIT_BIG"    // "1": one writer, entries of 1 to 2 MiB
)

// TestAuditHelperProcess is not a test: TestJSONLinesSinkSurvivesKill
// runs the test binary with it selected, as a child process that opens the
// sink and records entries from four goroutines until it is killed,
// acknowledging on file descriptor 3 every invocation whose Record
// returned nil. Without the environment variable it does nothing.
func TestAuditHelperProcess(t *testing.T) {
	path := os.Getenv(auditHelperEnv)
	if path == "" {
		return
	}
	run := os.Getenv(auditRunEnv)
	acks := os.NewFile(3, "acks")
	fail := func(err error) {
		fmt.Fprintf(acks, "error %v\n", err)
		os.Exit(2)
	}
	sink, err := agent.OpenJSONLinesSink(path, agent.JSONLinesOptions{})
	if err != nil {
		fail(err)
	}
	var ackMu sync.Mutex
	big := os.Getenv(auditBigEnv) == "1"
	// The helper never ends on its own while its parent lives (the parent
	// kills it, and fails a run whose helper ended itself): it ends when
	// its standard input, which the parent holds open, closes, which
	// happens when the parent is gone. Its writing is bounded by count, not
	// time; a helper that wrote all it may waits for the kill.
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(3)
	}()
	var wg sync.WaitGroup
	writers, entries := 4, 500
	if big {
		writers, entries = 1, 64 // one long write at a time is what the parent waits to cut
	}
	for g := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), uint64(time.Now().UnixNano())))
			for n := range entries {
				id := fmt.Sprintf("r%s-g%d-%d", run, g, n)
				if err := sink.Record(auditEntry(id, helperInput(rng, big))); err != nil {
					fail(err)
				}
				ackMu.Lock()
				_, err := fmt.Fprintln(acks, id)
				ackMu.Unlock()
				if err != nil {
					fail(err)
				}
			}
		})
	}
	wg.Wait()
	select {} // wait for the kill, or for the parent to be gone
}

// helperInput is an input object of 1 to 96 KiB, so that lines cross
// page boundaries, with multi-byte characters to cut through; big, of 1
// to 2 MiB, so that one write lasts long enough for a kill to land in it
// however loaded the machine is.
func helperInput(rng *rand.Rand, big bool) string {
	const unit = "Crème brûlée, 日本の茶, 🍵 — "
	var b strings.Builder
	b.WriteString(`{"note":"`)
	size := 1024 + rng.IntN(95*1024)
	if big {
		size = 1<<20 + rng.IntN(1<<20)
	}
	for b.Len() < size {
		b.WriteString(unit)
	}
	b.WriteString(`","n":`)
	b.WriteString(strconv.Itoa(rng.IntN(1000)))
	b.WriteString(`}`)
	return b.String()
}

// A writing process killed at random moments, again and again, never
// costs an acknowledged entry: each run reopens the file, and every
// invocation whose Record returned nil is decoded by ReadJSONLines; torn
// lines are reported, never fatal, and no line holds a torn fragment glued
// to an entry.
func TestJSONLinesSinkSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 30 processes")
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 12))
	// 30 runs, fewer on a machine so loaded that they would take more
	// than 12 seconds (at least 10); more, up to 60 runs or 45 seconds,
	// while no kill has yet torn a line, since the test is about that.
	const maxRuns, minRuns, budget = 30, 10, 12 * time.Second
	const moreRuns, hardBudget = 60, 45 * time.Second
	tornSoFar := 0
	acked := map[string]bool{}
	var lastLine int64 // where the previous check's last line began
	start := time.Now()
	runs := 0
	for run := range moreRuns {
		if run >= minRuns && (run >= maxRuns || time.Since(start) > budget) &&
			(tornSoFar > 0 || time.Since(start) > hardBudget) {
			break
		}
		runs++
		// Odd runs are killed at a random moment, which mostly falls
		// between writes; even runs the moment the file's last byte is not
		// a '\n', that is in the middle of a write, and until a kill has
		// torn a line they write entries of megabytes, so that the middle
		// of a write lasts long enough to be hit on a loaded machine.
		moment := killAfter(time.Duration(rng.IntN(2000)) * time.Microsecond)
		big := run%2 == 0 && tornSoFar == 0
		if run%2 == 0 {
			moment = killMidLine(path)
		}
		runAcks := runAuditHelper(t, path, run, 1+rng.IntN(8), big, moment)
		if len(runAcks) == 0 {
			t.Fatalf("run %d acknowledged nothing", run)
		}
		for _, id := range runAcks {
			acked[id] = true
		}
		// Check what this run wrote, from the start of the line the
		// previous check ended on (which this run's reopen may have ended).
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		section := io.NewSectionReader(f, lastLine, fi.Size()-lastLine)
		entries, torn, err := agent.ReadJSONLines(section)
		if err != nil {
			t.Fatalf("run %d: reading what it wrote: %v", run, err)
		}
		got := map[string]bool{}
		for _, e := range entries {
			got[e.Invocation] = true
		}
		for _, id := range runAcks {
			if !got[id] {
				t.Fatalf("run %d: acknowledged %s is not in the file", run, id)
			}
		}
		raw := make([]byte, fi.Size()-lastLine)
		if _, err := f.ReadAt(raw, lastLine); err != nil {
			t.Fatal(err)
		}
		f.Close()
		checkNoGluedLines(t, raw, len(torn))
		tornSoFar += len(torn)
		// An unterminated last line is an entry (cut just before its
		// '\n') or reported as torn.
		lastStart := int64(bytes.LastIndexByte(raw, '\n') + 1)
		if lastStart < int64(len(raw)) {
			var e agent.AuditEntry
			if json.Unmarshal(raw[lastStart:], &e) != nil &&
				(len(torn) == 0 || torn[len(torn)-1].Offset != lastStart || torn[len(torn)-1].Length != len(raw)-int(lastStart)) {
				t.Fatalf("run %d: the unterminated tail at %d is not reported as torn: %+v", run, lastStart, torn)
			}
		}
		lastLine += lastStart
	}

	// Reopened one last time, the whole file reads with every
	// acknowledged entry and each torn line reported once.
	sink, err := agent.OpenJSONLinesSink(path, agent.JSONLinesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	entries, torn, err := readAuditFile(t, path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range entries {
		got[e.Invocation] = true
	}
	for id := range acked {
		if !got[id] {
			t.Errorf("acknowledged %s is not in the file", id)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if raw[len(raw)-1] != '\n' {
		t.Error("the reopened file does not end in a newline")
	}
	checkNoGluedLines(t, raw, len(torn))
	t.Logf("%d runs in %v: %d entries, %d acknowledged, %d torn lines, %d bytes",
		runs, time.Since(start).Round(time.Millisecond), len(entries), len(acked), len(torn), len(raw))
	if len(torn) == 0 {
		t.Error("no kill landed in the middle of a write: the test did not exercise a torn tail")
	}
}

// killAfter returns a kill moment delay from now.
func killAfter(delay time.Duration) func() {
	return func() {
		if delay > 0 {
			time.Sleep(delay) // the fault's random moment, not a wait for a result
		}
	}
}

// killMidLine returns a kill moment when the file at path does not end
// in '\n': a line is being written (the kernel grows the file a page at a
// time). It gives up after 100ms, killing wherever the writer is.
func killMidLine(path string) func() {
	return func() {
		f, err := os.Open(path)
		if err != nil {
			return
		}
		defer f.Close()
		var last [1]byte
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
			fi, err := f.Stat()
			if err != nil {
				return
			}
			if fi.Size() > 0 {
				if _, err := f.ReadAt(last[:], fi.Size()-1); err == nil && last[0] != '\n' {
					return
				}
			}
		}
	}
}

// runAuditHelper starts a helper process writing to path, waits for its
// first acks and for moment to return, and kills it; it returns every
// invocation the child acknowledged.
func runAuditHelper(t *testing.T, path string, run, acks int, big bool, moment func()) []string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestAuditHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), auditHelperEnv+"="+path, auditRunEnv+"="+strconv.Itoa(run))
	if big {
		cmd.Env = append(cmd.Env, auditBigEnv+"=1")
	}
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	// The helper's standard input stays open while this test lives: its
	// end tells a helper whose parent is gone to stop.
	alive, keepAlive, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer keepAlive.Close()
	cmd.Stdin = alive
	if err := cmd.Start(); err != nil {
		w.Close()
		alive.Close()
		t.Fatal(err)
	}
	w.Close()
	alive.Close()
	sc := bufio.NewScanner(r)
	var ids []string
	for len(ids) < acks && sc.Scan() {
		ids = append(ids, sc.Text())
	}
	moment()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		ids = append(ids, sc.Text())
	}
	_ = cmd.Wait()
	for _, id := range ids {
		if strings.HasPrefix(id, "error ") {
			t.Fatalf("run %d: helper failed: %s", run, id)
		}
	}
	if state := cmd.ProcessState; state == nil || state.Success() {
		t.Fatalf("run %d: the helper was not killed: %v", run, state)
	}
	return ids
}

// checkNoGluedLines fails when a line of raw holds a torn fragment
// followed by a whole entry, and when the number of undecodable lines
// differs from the number the reader reported as torn.
func checkNoGluedLines(t *testing.T, raw []byte, reportedTorn int) {
	t.Helper()
	undecodable := 0
	for i, line := range bytes.SplitAfter(raw, []byte("\n")) {
		text := bytes.TrimSuffix(line, []byte("\n"))
		if len(text) == 0 {
			continue
		}
		var e agent.AuditEntry
		if json.Unmarshal(text, &e) == nil {
			continue
		}
		undecodable++
		for k := 1; k < len(text); k++ {
			j := bytes.Index(text[k:], []byte(`{"at":`))
			if j < 0 {
				break
			}
			k += j
			if json.Unmarshal(text[k:], &e) == nil {
				t.Fatalf("line %d holds a torn fragment of %d bytes glued to entry %s", i+1, k, e.Invocation)
			}
		}
	}
	if undecodable != reportedTorn {
		t.Fatalf("%d undecodable lines, %d reported torn", undecodable, reportedTorn)
	}
}

// Reading an audit file back: a writer killed mid-line left a torn
// fragment, which is reported, not an error.
func ExampleReadJSONLines() {
	file := `{"at":1767323045000,"invocation":"inv-1","transport":"mcp","capability":"create_todo","decision":"dispatched","outcome":"dispatched"}
{"at":1767323046000,"invocation":"inv-2","trans
{"at":1767323047000,"invocation":"inv-3","transport":"mcp","capability":"create_todo","decision":"refused","outcome":"AgentAuthorizationError"}
`
	entries, torn, err := agent.ReadJSONLines(strings.NewReader(file))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range entries {
		fmt.Println(e.Invocation, e.Decision, e.Outcome)
	}
	for _, t := range torn {
		fmt.Printf("torn: line %d, %d bytes at offset %d\n", t.Line, t.Length, t.Offset)
	}
	// Output:
	// inv-1 dispatched dispatched
	// inv-3 refused AgentAuthorizationError
	// torn: line 2, 47 bytes at offset 134
}
