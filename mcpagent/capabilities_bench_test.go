package mcpagent_test

import (
	"context"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// noteApp counts the Messages applied: every call changes the Model.
type noteApp struct{}

func (noteApp) Init() (int, loop.Cmd[any])               { return 0, nil }
func (noteApp) Update(m int, _ any) (int, loop.Cmd[any]) { return m + 1, nil }

// manyCapabilities serves a contract of n capabilities, each always
// available, on a host/loop program, to an in-memory go-sdk client. With
// declared, each capability declares that its availability reads one
// watch, which a note leaves as it was.
func manyCapabilities(b *testing.B, n int, declared bool) *mcp.ClientSession {
	prog := loop.New[int, any](noteApp{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	b.Cleanup(func() { cancel(); <-done })
	var reads []agent.Watch[int]
	if declared {
		reads = []agent.Watch[int]{agent.Watching("open", func(m int) bool { return m >= 0 })}
	}
	caps := noteCapabilities(n, func(m int) bool { return m >= 0 }, reads)
	c := agent.Make(agent.Definition[int, agent.NoPrincipal]{Capabilities: caps})
	rt, err := agent.Bind[int, any, agent.NoPrincipal](c, prog, nil)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := mcpagent.NewServer(rt, &mcpagent.Options{Logger: quietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	return benchClient(b, func(t mcp.Transport) {
		if _, err := srv.Connect(context.Background(), t, nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkCallManyCapabilities measures a tools/call naming one
// capability of 1,000 against the same call with 10, each call changing
// the Model, interleaved call by call; it reports the ratio of the
// medians (target: at most 1.05×). "listed" has each client list the
// tools first, as most clients do on connecting, so that its list can go
// stale; "unlisted" never lists; "declared" lists, and its capabilities
// declare what their availability reads (Variant.AvailableReads), so a
// note re-checks none of them.
//
//	go test -run '^$' -bench CallManyCapabilities -benchtime 3000x ./mcpagent/
func BenchmarkCallManyCapabilities(b *testing.B) {
	for _, bc := range []struct {
		name             string
		listed, declared bool
	}{{"listed", true, false}, {"unlisted", false, false}, {"declared", true, true}} {
		listed := bc.listed
		b.Run(bc.name, func(b *testing.B) {
			cs := [2]*mcp.ClientSession{manyCapabilities(b, 10, bc.declared), manyCapabilities(b, 1000, bc.declared)}
			ctx := context.Background()
			params := &mcp.CallToolParams{Name: "note_0000", Arguments: map[string]any{"title": "milk"}}
			for _, c := range cs {
				if listed {
					if _, err := c.ListTools(ctx, nil); err != nil {
						b.Fatal(err)
					}
				}
				for range 50 {
					if _, err := c.CallTool(ctx, params); err != nil {
						b.Fatal(err)
					}
				}
			}
			var lat [2][]float64
			i := 0
			for b.Loop() {
				for k := range 2 {
					side := (i + k) % 2
					t0 := time.Now()
					res, err := cs[side].CallTool(ctx, params)
					lat[side] = append(lat[side], float64(time.Since(t0)))
					if err != nil || res.IsError {
						b.Fatal(err, res)
					}
				}
				i++
			}
			b.ReportMetric(median(lat[1])/median(lat[0]), "1000/10")
			b.ReportMetric(median(lat[0])/1e3, "µs/call-10")
			b.ReportMetric(median(lat[1])/1e3, "µs/call-1000")
		})
	}
}

// BenchmarkOfferAfterChange measures what the Feed pays after one Model
// change with 1,000 capabilities: the runtime's OfferTracker re-checking
// what can have changed, with the capabilities declaring what their
// availability reads ("declared") or not ("undeclared").
//
//	go test -run '^$' -bench OfferAfterChange ./mcpagent/
func BenchmarkOfferAfterChange(b *testing.B) {
	for _, declared := range []bool{false, true} {
		name := "undeclared"
		if declared {
			name = "declared"
		}
		b.Run(name, func(b *testing.B) {
			var reads []agent.Watch[int]
			if declared {
				reads = []agent.Watch[int]{agent.Watching("open", func(m int) bool { return m >= 0 })}
			}
			c := agent.Make(agent.Definition[int, agent.NoPrincipal]{Capabilities: noteCapabilities(1000, func(m int) bool { return m >= 0 }, reads)})
			h := &intHost{}
			rt, err := agent.Bind[int, any, agent.NoPrincipal](c, h, nil)
			if err != nil {
				b.Fatal(err)
			}
			tr := rt.TrackOffer()
			for b.Loop() {
				h.m++
				set, _, err := tr.Next()
				if err != nil || !set[999] {
					b.Fatal(err, set[999])
				}
			}
		})
	}
}

// intHost is a Model of one int that the benchmark changes itself.
type intHost struct{ m int }

func (h *intHost) Model() int                          { return h.m }
func (h *intHost) Dispatch(context.Context, any) error { return nil }
