package natsaudit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/natsaudit"
)

const stream = "AUDIT"

// startServer runs an embedded JetStream server on loopback that syncs
// every write, storing in dir, on port (-1: any free port).
func startServer(t testing.TB, dir string, port int) *server.Server {
	t.Helper()
	ns, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: dir,
		SyncAlways: true, NoLog: true, NoSigs: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("the embedded NATS server did not start")
	}
	return ns
}

func connect(t testing.TB, ns *server.Server, opts ...nats.Option) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, err := nats.Connect(ns.ClientURL(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return nc, js
}

func createStream(t testing.TB, js jetstream.JetStream) jetstream.Stream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := js.CreateOrUpdateStream(ctx, natsaudit.StreamConfig(stream))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stored reads every entry the stream holds, in order.
func stored(t testing.TB, s jetstream.Stream) []agent.AuditEntry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []agent.AuditEntry
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if err != nil {
			t.Fatalf("message %d: %v", seq, err)
		}
		var e agent.AuditEntry
		if err := json.Unmarshal(m.Data, &e); err != nil {
			t.Fatalf("message %d does not decode as an audit entry: %v", seq, err)
		}
		out = append(out, e)
	}
	return out
}

func entry(i int) agent.AuditEntry {
	return agent.AuditEntry{
		At:         time.UnixMilli(1_800_000_000_000 + int64(i)).UTC(),
		Invocation: fmt.Sprintf("inv-%04d", i),
		Transport:  agent.MCP,
		Capability: "create_todo",
		Tag:        "CreateTodo",
		Principal:  "owner",
		Decision:   agent.DecisionDispatched,
		Outcome:    agent.OutcomeCompleted,
		Input:      json.RawMessage(`{"title":"Milk"}`),
	}
}

// Entries arrive in the stream as the JSON an AuditEntry encodes to, and
// decode back to what was recorded.
func TestRecordStoresEntries(t *testing.T) {
	ns := startServer(t, t.TempDir(), -1)
	defer ns.Shutdown()
	_, js := connect(t, ns)
	s := createStream(t, js)
	sink := natsaudit.New(js, natsaudit.Options{Stream: stream})
	for i := range 5 {
		if err := sink.Record(entry(i)); err != nil {
			t.Fatalf("Record %d: %v", i, err)
		}
	}
	got := stored(t, s)
	if len(got) != 5 {
		t.Fatalf("stream holds %d entries, want 5", len(got))
	}
	for i, e := range got {
		want := entry(i)
		if e.Invocation != want.Invocation || !e.At.Equal(want.At) || e.Outcome != want.Outcome || string(e.Input) != string(want.Input) {
			t.Fatalf("entry %d = %+v, want %+v", i, e, want)
		}
	}
}

// An entry recorded twice (a caller's retry) is stored once.
func TestRecordTwiceIsStoredOnce(t *testing.T) {
	ns := startServer(t, t.TempDir(), -1)
	defer ns.Shutdown()
	_, js := connect(t, ns)
	s := createStream(t, js)
	sink := natsaudit.New(js, natsaudit.Options{})
	for range 3 {
		if err := sink.Record(entry(7)); err != nil {
			t.Fatal(err)
		}
	}
	if got := stored(t, s); len(got) != 1 {
		t.Fatalf("stream holds %d entries, want 1", len(got))
	}
}

// lossyAcks publishes for real but reports the first attempt of each
// message as failed, as when the acknowledgement is lost on the way back.
type lossyAcks struct {
	js    jetstream.JetStream
	mu    sync.Mutex
	seen  map[string]bool
	calls atomic.Int64
}

func (l *lossyAcks) Publish(ctx context.Context, subj string, data []byte, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	l.calls.Add(1)
	ack, err := l.js.Publish(ctx, subj, data, opts...)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil && !l.seen[string(data)] {
		l.seen[string(data)] = true
		return nil, nats.ErrTimeout
	}
	return ack, err
}

// A publish whose acknowledgement was lost is retried with the same
// message id: Record succeeds and the stream holds the entry once.
func TestLostAcknowledgementIsRetriedWithoutDuplicate(t *testing.T) {
	ns := startServer(t, t.TempDir(), -1)
	defer ns.Shutdown()
	_, js := connect(t, ns)
	s := createStream(t, js)
	pub := &lossyAcks{js: js, seen: map[string]bool{}}
	sink := natsaudit.New(pub, natsaudit.Options{})
	for i := range 4 {
		if err := sink.Record(entry(i)); err != nil {
			t.Fatalf("Record %d: %v", i, err)
		}
	}
	if n := pub.calls.Load(); n != 8 {
		t.Fatalf("publish attempts = %d, want 8 (each entry's ack lost once)", n)
	}
	if got := stored(t, s); len(got) != 4 {
		t.Fatalf("stream holds %d entries, want 4", len(got))
	}
}

// A stream other than the expected one refuses at once, and a subject no
// stream captures fails within the timeout: neither reports success.
func TestRecordFailsTruthfully(t *testing.T) {
	ns := startServer(t, t.TempDir(), -1)
	defer ns.Shutdown()
	_, js := connect(t, ns)
	createStream(t, js)
	if err := natsaudit.New(js, natsaudit.Options{Stream: "ELSEWHERE"}).Record(entry(1)); err == nil {
		t.Fatal("an entry for another stream was reported stored")
	}
	start := time.Now()
	err := natsaudit.New(js, natsaudit.Options{Subject: "nobody.listens", Timeout: 300 * time.Millisecond}).Record(entry(2))
	if err == nil {
		t.Fatal("an entry no stream captured was reported stored")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Record took %s, bounded by a 300ms timeout", d)
	}
}

// Fault test: the server is shut down and restarted (same store) while
// several goroutines record. Every entry whose Record returned nil is in
// the stream after the restart, exactly once; entries refused during the
// outage returned an error, never nil.
func TestAcknowledgedEntriesSurviveServerRestart(t *testing.T) {
	dir := t.TempDir()
	ns := startServer(t, dir, -1)
	addr := ns.ClientURL()
	_, js := connect(t, ns, nats.MaxReconnects(-1), nats.ReconnectWait(20*time.Millisecond))
	createStream(t, js)
	sink := natsaudit.New(js, natsaudit.Options{Stream: stream, Timeout: 500 * time.Millisecond})

	var (
		mu    sync.Mutex
		acked = map[string]bool{}
		next  atomic.Int64
		wg    sync.WaitGroup
		stop  = make(chan struct{})
		fails atomic.Int64
		// moved says a writer recorded or failed an entry.
		moved = make(chan struct{}, 1)
	)
	signal := func() {
		select {
		case moved <- struct{}{}:
		default: // a signal is pending: the waiter looks at the counts anyway
		}
	}
	// until waits, writer by writer, for cond over the acknowledged
	// entries and the failures.
	until := func(what string, cond func(acked int, fails int64) bool) {
		t.Helper()
		timeout := time.After(30 * time.Second)
		for {
			mu.Lock()
			n := len(acked)
			mu.Unlock()
			if cond(n, fails.Load()) {
				return
			}
			select {
			case <-moved:
			case <-timeout:
				t.Fatalf("never: %s (%d acknowledged, %d failed)", what, n, fails.Load())
			}
		}
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				e := entry(int(next.Add(1)))
				if err := sink.Record(e); err != nil {
					fails.Add(1)
					signal()
					continue
				}
				mu.Lock()
				acked[e.Invocation] = true
				mu.Unlock()
				signal()
			}
		}()
	}
	until("entries acknowledged before the outage", func(n int, _ int64) bool { return n >= 50 })
	ns.Shutdown()
	ns.WaitForShutdown()
	var before int
	until("a record failing during the outage", func(n int, f int64) bool { before = n; return f > 0 })
	var port2 int
	if _, err := fmt.Sscanf(addr, "nats://127.0.0.1:%d", &port2); err != nil {
		t.Fatal(err)
	}
	ns = startServer(t, dir, port2)
	defer ns.Shutdown()
	until("entries acknowledged again after the restart", func(n int, _ int64) bool { return n >= before+50 })
	close(stop)
	wg.Wait()

	_, js2 := connect(t, ns)
	s, err := js2.Stream(context.Background(), stream)
	if err != nil {
		t.Fatal(err)
	}
	got := stored(t, s)
	count := map[string]int{}
	for _, e := range got {
		count[e.Invocation]++
	}
	mu.Lock()
	defer mu.Unlock()
	for id := range acked {
		if count[id] != 1 {
			t.Fatalf("acknowledged entry %s is stored %d times after the restart", id, count[id])
		}
	}
	for id, n := range count {
		if n != 1 {
			t.Fatalf("entry %s stored %d times", id, n)
		}
	}
	if len(acked) == 0 {
		t.Fatal("no entry was acknowledged; the test proved nothing")
	}
	t.Logf("acknowledged %d, failed during the outage %d, stored %d", len(acked), fails.Load(), len(got))
}

// BenchmarkRecord compares one entry's cost on JetStream (a synchronous,
// acknowledged publish to an embedded server syncing every write) with
// the JSON Lines file sink, with and without its per-entry fsync, in the
// same run. Report the ratios nats/jsonl.
func BenchmarkRecord(b *testing.B) {
	b.Run("sink=jsonl", func(b *testing.B) {
		s, err := agent.OpenJSONLinesSink(filepath.Join(b.TempDir(), "audit.jsonl"), agent.JSONLinesOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchSink(b, s)
	})
	b.Run("sink=jsonl-sync", func(b *testing.B) {
		s, err := agent.OpenJSONLinesSink(filepath.Join(b.TempDir(), "audit.jsonl"), agent.JSONLinesOptions{SyncEveryEntry: true})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchSink(b, s)
	})
	b.Run("sink=nats", func(b *testing.B) {
		ns := startServer(b, b.TempDir(), -1)
		defer ns.Shutdown()
		_, js := connect(b, ns)
		createStream(b, js)
		benchSink(b, natsaudit.New(js, natsaudit.Options{Stream: stream}))
	})
}

func benchSink(b *testing.B, s agent.AuditSink) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if err := s.Record(entry(i)); err != nil {
			b.Fatal(err)
		}
	}
}

var _ = errors.New

// A call held for the person's approval has two entries with one
// invocation id (held, then how it ended): both are stored, each once.
func TestHeldAndFinalEntriesAreBothStored(t *testing.T) {
	ns := startServer(t, t.TempDir(), -1)
	defer ns.Shutdown()
	_, js := connect(t, ns)
	s := createStream(t, js)
	sink := natsaudit.New(js, natsaudit.Options{})
	held := entry(3)
	held.Decision, held.Outcome = agent.DecisionHeld, agent.OutcomeAwaitingApproval
	final := entry(3)
	for _, e := range []agent.AuditEntry{held, final, held, final} {
		if err := sink.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	got := stored(t, s)
	if len(got) != 2 || got[0].Decision != agent.DecisionHeld || got[1].Decision != final.Decision {
		t.Fatalf("stream holds %+v, want the held entry and the final one", got)
	}
}

// lostAcks publishes for real and loses every acknowledgement.
type lostAcks struct{ js jetstream.JetStream }

func (l lostAcks) Publish(ctx context.Context, subj string, data []byte, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if _, err := l.js.Publish(ctx, subj, data, opts...); err != nil {
		return nil, err
	}
	return nil, nats.ErrTimeout
}

// Every acknowledgement lost: the entry is stored, and Record says its
// delivery is unknown (ErrDeliveryUnknown), not that it failed.
func TestLostAcknowledgementsAreDeliveryUnknown(t *testing.T) {
	ns := startServer(t, t.TempDir(), -1)
	defer ns.Shutdown()
	_, js := connect(t, ns)
	s := createStream(t, js)
	err := natsaudit.New(lostAcks{js}, natsaudit.Options{Timeout: 200 * time.Millisecond}).Record(entry(5))
	if !errors.Is(err, natsaudit.ErrDeliveryUnknown) {
		t.Fatalf("err = %v, want ErrDeliveryUnknown", err)
	}
	if got := stored(t, s); len(got) != 1 {
		t.Fatalf("stream holds %d entries, want 1", len(got))
	}
	// A refusal is not delivery unknown.
	if err := natsaudit.New(js, natsaudit.Options{Stream: "ELSEWHERE"}).Record(entry(6)); err == nil || errors.Is(err, natsaudit.ErrDeliveryUnknown) {
		t.Fatalf("a refusal: %v", err)
	}
}
