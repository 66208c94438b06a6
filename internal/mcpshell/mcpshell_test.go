package mcpshell

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/bound"
)

func TestImplementation(t *testing.T) {
	def := mcp.Implementation{Name: "app", Version: "1.2.3"}
	cases := []struct {
		name string
		in   *mcp.Implementation
		want mcp.Implementation
	}{
		{"nil takes the default", nil, def},
		{"empty fields take the default", &mcp.Implementation{Title: "App"}, mcp.Implementation{Name: "app", Title: "App", Version: "1.2.3"}},
		{"given fields stay", &mcp.Implementation{Name: "mine", Version: "9"}, mcp.Implementation{Name: "mine", Version: "9"}},
		{"only the version given", &mcp.Implementation{Version: "9"}, mcp.Implementation{Name: "app", Version: "9"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before mcp.Implementation
			if c.in != nil {
				before = *c.in
			}
			got := Implementation(c.in, def)
			if !reflect.DeepEqual(*got, c.want) {
				t.Fatalf("got %+v, want %+v", *got, c.want)
			}
			if c.in != nil && (!reflect.DeepEqual(*c.in, before) || got == c.in) {
				t.Fatal("the caller's value was changed or returned")
			}
		})
	}
}

func TestPlacesResolvesTheOptions(t *testing.T) {
	cases := []struct {
		per, total         int
		wantPer, wantTotal int
	}{
		{0, 0, DefaultMaxSessionsPerPrincipal, DefaultMaxSessions},
		{3, 7, 3, 7},
		{-1, -1, 0, 0},
	}
	for _, c := range cases {
		p := Places(c.per, c.total)
		if p.PerIdentity().Max != c.wantPer || p.Overall().Max != c.wantTotal {
			t.Errorf("Places(%d, %d) = %d, %d; want %d, %d", c.per, c.total, p.PerIdentity().Max, p.Overall().Max, c.wantPer, c.wantTotal)
		}
	}
}

func TestAdmit(t *testing.T) {
	cases := []struct {
		name         string
		per, total   int
		held         map[string]int // places taken before
		evicts       []bool         // what evict answers, call by call
		wait         time.Duration  // evict's hint when it ends none
		wantRefused  bool
		wantPerIdent bool
		wantRetry    time.Duration // 0: the counter's default
		wantEvicts   int
	}{
		{name: "room", per: 2, total: 10, wantEvicts: 0},
		{name: "own bound, one gives way", per: 1, total: 10, held: map[string]int{"a": 1}, evicts: []bool{true}, wantEvicts: 1},
		{name: "own bound, none idle", per: 1, total: 10, held: map[string]int{"a": 1}, evicts: []bool{false}, wantRefused: true, wantPerIdent: true, wantEvicts: 1},
		{name: "own bound, one idle soon", per: 1, total: 10, held: map[string]int{"a": 1}, evicts: []bool{false}, wait: 7 * time.Second, wantRefused: true, wantPerIdent: true, wantRetry: 7 * time.Second, wantEvicts: 1},
		{name: "overall bound never evicts", per: 5, total: 1, held: map[string]int{"b": 1}, wantRefused: true, wantEvicts: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			places := bound.NewCounter(bound.Limit{Name: "MaxSessionsPerPrincipal", Max: c.per}, bound.Limit{Name: "MaxSessions", Max: c.total}, bound.DefaultRetryAfter)
			for k, n := range c.held {
				for range n {
					if err := places.Take(k); err != nil {
						t.Fatal(err)
					}
				}
			}
			calls := 0
			evict := func(key string) (bool, time.Duration) {
				if key != "a" {
					t.Fatalf("evict asked for %q", key)
				}
				ended := c.evicts[calls]
				calls++
				if ended {
					places.Give(key) // the ended session's place
					return true, 0
				}
				return false, c.wait
			}
			r := Admit(places, "a", evict)
			if (r != nil) != c.wantRefused {
				t.Fatalf("refusal = %v, want refused %v", r, c.wantRefused)
			}
			if calls != c.wantEvicts {
				t.Fatalf("evict called %d times, want %d", calls, c.wantEvicts)
			}
			if r == nil {
				if places.Held("a") == 0 {
					t.Fatal("admitted without a place taken")
				}
				return
			}
			if r.PerIdentity != c.wantPerIdent {
				t.Fatalf("PerIdentity = %v, want %v", r.PerIdentity, c.wantPerIdent)
			}
			want := c.wantRetry
			if want == 0 {
				want = bound.DefaultRetryAfter
			}
			if r.RetryAfter != want {
				t.Fatalf("RetryAfter = %v, want %v", r.RetryAfter, want)
			}
		})
	}
}

func TestRefusalMessageNamesWhatToDo(t *testing.T) {
	own := RefusalMessage(&bound.Refusal{PerIdentity: true})
	all := RefusalMessage(&bound.Refusal{})
	if own == all || !strings.Contains(own, "DELETE") || strings.Contains(all, "DELETE") {
		t.Fatalf("own bound %q, overall %q", own, all)
	}
}

func TestShellClosesOnceAndRefusesAfter(t *testing.T) {
	var s Shell
	s.Init(mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{Logger: Discard}), "shelltest")
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var mu sync.Mutex
	var order []string
	note := func(what string) func() {
		return func() {
			if !s.Closed() {
				t.Errorf("%s ran before the shell was closed", what)
			}
			mu.Lock()
			order = append(order, what)
			mu.Unlock()
		}
	}
	s.Close(&mu, note("before"), note("after"))
	s.Close(nil, note("again"), nil)
	if strings.Join(order, ",") != "before,after" {
		t.Fatalf("ran %v, want before then after, once", order)
	}
	_ = ss.Wait() // returns once Close closed the session
	for range s.MCP().Sessions() {
		t.Fatal("a session still open after Close")
	}
	st2, _ := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st2, nil); err == nil || err != s.ErrClosed() || !strings.HasPrefix(err.Error(), "shelltest: ") {
		t.Fatalf("Connect after Close: %v", err)
	}
}
