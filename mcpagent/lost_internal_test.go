package mcpagent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
)

// breakable is a server transport whose writes fail once broken is set:
// a client whose stream broke without the session ending.
type breakable struct {
	mcp.Transport
	broken *atomic.Bool
}

func (b breakable) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := b.Transport.Connect(ctx)
	return breakableConn{Connection: c, broken: b.broken}, err
}

type breakableConn struct {
	mcp.Connection
	broken *atomic.Bool
}

func (c breakableConn) Write(ctx context.Context, m jsonrpc.Message) error {
	if c.broken.Load() {
		return errors.New("broken stream")
	}
	return c.Connection.Write(ctx, m)
}

// lockedBuffer is a log destination safe for concurrent writes, which
// says on wrote that a line was written.
type lockedBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case l.wrote <- struct{}{}:
	default: // a signal is pending already: the waiter reads the buffer
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// contextRuntime is a flipRuntime that projects a context whose value is
// the number v.
type contextRuntime struct {
	*flipRuntime
	v atomic.Int64
}

func (c *contextRuntime) Describe() agent.Description {
	d := c.flipRuntime.Describe()
	d.Context = json.RawMessage(`{"type":"object"}`)
	return d
}

func (c *contextRuntime) ContextRead(context.Context) (agent.Read, error) {
	b, err := json.Marshal(map[string]int64{"v": c.v.Load()})
	return agent.Read{Value: b}, err
}

// lossFixture is a Server with one client whose stream can be broken.
type lossFixture struct {
	s      *Server
	ss     *mcp.ServerSession
	cs     *mcp.ClientSession
	broken atomic.Bool
	log    lockedBuffer
}

func newLossFixture(t *testing.T, rt Runtime) *lossFixture {
	t.Helper()
	f := &lossFixture{log: lockedBuffer{wrote: make(chan struct{}, 1)}}
	s, err := NewServer(rt, &Options{Logger: slog.New(slog.NewTextHandler(&f.log, nil)), ProgressInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	f.s = s
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if f.ss, err = s.mcp.Connect(ctx, breakable{Transport: st, broken: &f.broken}, nil); err != nil {
		t.Fatal(err)
	}
	if f.cs, err = mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.cs.Close(); s.Close() })
	return f
}

// wantLost checks that exactly one notification of the kind counted by
// field was lost, and that the log says which.
func (f *lossFixture) wantLost(t *testing.T, field func(NoticeHealth) uint64, method string) {
	t.Helper()
	h := f.s.NoticeHealth()
	if field(h) != 1 || h.Lost() != 1 || h.LastError == nil || !strings.Contains(h.LastError.Error(), method) {
		t.Fatalf("health after one lost %s: %+v", method, h)
	}
	if out := f.log.String(); !strings.Contains(out, "level=WARN") || !strings.Contains(out, method) {
		t.Fatalf("the loss of %s was not logged at Warn: %q", method, out)
	}
}

// A progress notification that cannot be sent is counted and logged,
// not ignored; the call it belongs to is not affected.
func TestALostProgressNotificationIsCountedAndLogged(t *testing.T) {
	f := newLossFixture(t, newFlipRuntime(1))
	p := &progress{ss: f.ss, token: "tok", lost: &f.s.lost}
	p.send(context.Background(), progressMessage)
	if h := f.s.NoticeHealth(); h.Lost() != 0 {
		t.Fatalf("a progress notification sent was counted lost: %+v", h)
	}
	f.broken.Store(true)
	p.send(context.Background(), progressMessage)
	f.wantLost(t, func(h NoticeHealth) uint64 { return h.Progress }, "notifications/progress")
}

// A list_changed the SDK cannot send to a session reaches the Server's
// count and log through the logger the SDK is given (before, the SDK's
// warning went to a discarding logger).
func TestALostListChangedIsCountedAndLogged(t *testing.T) {
	f := newLossFixture(t, newFlipRuntime(2))
	f.broken.Store(true)
	f.s.mcp.RemoveTools("capability_0000") // as a reconciliation does
	for f.s.NoticeHealth().ListChanged == 0 {
		select {
		case <-f.log.wrote: // the Server logged something: look again
		case <-time.After(10 * time.Second):
			t.Fatal("no list_changed loss reported")
		}
	}
	f.wantLost(t, func(h NoticeHealth) uint64 { return h.ListChanged }, "notifications/tools/list_changed")
}

// A resources/updated the SDK cannot send to a subscribed session is
// counted and logged.
func TestALostResourceUpdateIsCountedAndLogged(t *testing.T) {
	rt := &contextRuntime{flipRuntime: newFlipRuntime(1)}
	f := newLossFixture(t, rt)
	if err := f.cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: ContextURI}); err != nil {
		t.Fatal(err)
	}
	f.broken.Store(true)
	rt.v.Add(1)
	f.s.syncResources()
	f.wantLost(t, func(h NoticeHealth) uint64 { return h.ResourceUpdates }, "notifications/resources/updated")
}
