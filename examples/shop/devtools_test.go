package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/devtools/registry"
	"github.com/foldagent/foldagent/internal/peer"
	"github.com/foldagent/foldagent/internal/testbin"
)

// shopIn runs the shop binary headless with -devtools, its dynamic tools
// over HTTP, from dir, publishing into reg; it returns the MCP URL.
func shopIn(t *testing.T, dir, reg string, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	args := append([]string{"-mcp", "http", "-tools", "dynamic", "-token", "s3cret", "-devtools"}, extra...)
	cmd := exec.CommandContext(ctx, testbin.Build(t, "examples/shop"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), registry.EnvDir+"="+reg)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	url := ""
	lines := bufio.NewScanner(stdout)
	for url == "" && lines.Scan() {
		url, _ = strings.CutPrefix(lines.Text(), "MCP ")
	}
	if url == "" {
		t.Fatal("the shop printed no URL")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	return url
}

// devCmd is the go-sdk client of foldagent-devtools started in a
// directory with nothing but the registry's environment variable; it
// logs every call for the TypeScript client to make again.
type devCmd struct {
	t   *testing.T
	cs  *mcp.ClientSession
	log []devCall
}

type devCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
	IsError   bool           `json:"isError"`
	Text      string         `json:"text"`
}

func startDevIn(t *testing.T, dir, reg string) *devCmd {
	t.Helper()
	cmd := exec.Command(testbin.Build(t, "cmd/foldagent-devtools"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), registry.EnvDir+"="+reg)
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "developer-agent", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &devCmd{t: t, cs: cs}
}

func (c *devCmd) call(name string, args map[string]any) (map[string]any, string, bool) {
	c.t.Helper()
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
			_ = json.Unmarshal([]byte(text), &out)
		}
	}
	if name != "attached_app" {
		c.log = append(c.log, devCall{Name: name, Arguments: args, IsError: res.IsError, Text: text})
	}
	return out, text, res.IsError
}

func (c *devCmd) must(name string, args map[string]any) map[string]any {
	c.t.Helper()
	out, text, isErr := c.call(name, args)
	if isErr {
		c.t.Fatalf("%s %v: %s", name, args, text)
	}
	return out
}

// shopEntry is a devtools_history entry, as far as the test reads it.
type shopEntry struct {
	Version    uint64   `json:"version"`
	Type       string   `json:"type"`
	By         string   `json:"by"`
	Changed    []string `json:"changed"`
	Provenance struct {
		Kind  string `json:"kind"`
		Door  string `json:"door"`
		Agent *struct {
			Identity, Caller, Invocation string
		} `json:"agent"`
	} `json:"provenance"`
}

func asJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// shopAgents: agent 1 finds and adds two red dresses and a blue one,
// agent 2 then takes the blue one out and goes to checkout; each reads
// the store first, and
// each call is followed by the app's own report of it (the panel).
func shopAgents(t *testing.T, url string) {
	a1, a2 := connectAgent(t, url, "s3cret"), connectAgent(t, url, "s3cret")
	a1.read()
	a1.must("search", map[string]any{"q": "gift"})
	a1.must("search", map[string]any{"q": "dress"})
	a1.must("open_product", map[string]any{"sku": "dress-red"})
	a1.must("add_to_cart", map[string]any{"qty": 2})
	a1.must("go_to_catalog", nil)
	a1.must("open_product", map[string]any{"sku": "dress-blue"})
	a1.must("add_to_cart", nil)
	a2.read()
	a2.must("go_to_cart", nil)
	a2.must("remove_from_cart", map[string]any{"sku": "dress-blue"})
	a2.must("checkout", nil)
}

// TestDevtoolsThroughTheCommandOnTheShop is issue 43's "must show" on the
// shop: two agents over MCP and the app's own reports, then a developer's
// agent through foldagent-devtools started in the project with no
// configuration: the Model now and two versions ago, the last 20
// Messages with their provenance, a diff, a replay equal to the record,
// dispatch refused. A second shop running from another directory, newer,
// is not picked; a wrong token is refused by the app.
func TestDevtoolsThroughTheCommandOnTheShop(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the shop and the command")
	}
	project, reg := t.TempDir(), filepath.Join(t.TempDir(), "registry")
	if err := os.Mkdir(reg, 0o700); err != nil {
		t.Fatal(err)
	}
	appDir := filepath.Join(project, "shop")
	if err := os.Mkdir(appDir, 0o700); err != nil {
		t.Fatal(err)
	}
	url := shopIn(t, appDir, reg)
	shopAgents(t, url)
	shopIn(t, t.TempDir(), reg) // another project's shop, started later
	dev := startDevIn(t, project, reg)
	if _, att, _ := dev.call("attached_app", nil); !strings.Contains(att, `"shop"`) || !strings.Contains(att, appDir) {
		t.Fatalf("attached_app: %s, want the shop in %s", att, appDir)
	}

	now := dev.must("devtools_model", map[string]any{"path": "/Shop"})
	cur := uint64(now["version"].(float64))
	if got := asJSON(now["value"]); !strings.Contains(got, `"Page":"checkout"`) || !strings.Contains(got, `"Cart":[{"qty":2,"sku":"dress-red"}]`) {
		t.Fatalf("the store now: %s", got)
	}
	ago := dev.must("devtools_model", map[string]any{"version": cur - 2, "path": "/Shop"})
	// Two versions ago: the report of agent 2's removal, before checkout.
	if got := asJSON(ago["value"]); uint64(ago["version"].(float64)) != cur-2 || !strings.Contains(got, `"Page":"cart"`) || strings.Contains(got, "order-1") {
		t.Fatalf("the store two versions ago (v%v, want v%d): %s", ago["version"], cur-2, got)
	}

	h := dev.must("devtools_history", map[string]any{"last": 20})
	var entries []shopEntry
	if err := json.Unmarshal([]byte(asJSON(h["entries"])), &entries); err != nil || len(entries) != 20 {
		t.Fatalf("the last 20 Messages: %d (%v)", len(entries), err)
	}
	by := map[string]int{}
	callers := map[string]string{}
	for _, e := range entries {
		by[e.By+": "+e.Type]++
		switch e.Provenance.Kind {
		case "agent":
			a := e.Provenance.Agent
			if a == nil || a.Identity == "" || a.Caller == "" || a.Invocation == "" || e.By != a.Identity {
				t.Errorf("v%d %s: the agent is not named: %+v", e.Version, e.Type, a)
				continue
			}
			if c, ok := callers[a.Identity]; ok && c != a.Caller {
				t.Errorf("%s has two callers", a.Identity)
			}
			callers[a.Identity] = a.Caller
		case "app":
			if e.Type == "main.Activity" && e.Provenance.Door != "dispatch" {
				t.Errorf("v%d: the app's report came by %q", e.Version, e.Provenance.Door)
			}
		default:
			t.Errorf("v%d %s recorded as %q's", e.Version, e.Type, e.Provenance.Kind)
		}
	}
	for _, want := range []string{"agent 1: shop.AddToCart", "agent 2: shop.RemoveLine", "agent 2: shop.GoCheckout", "app: main.Activity"} {
		if by[want] == 0 {
			t.Errorf("the last 20 Messages have no %q: %v", want, by)
		}
	}
	if callers["agent 1"] == "" || callers["agent 2"] == "" || callers["agent 1"] == callers["agent 2"] {
		t.Errorf("the two agents are not told apart: %v", callers)
	}

	// The diff across agent 2's removal of the blue dress: the cart, only.
	var removed uint64
	for _, e := range entries {
		if e.Type == "shop.RemoveLine" {
			removed = e.Version
		}
	}
	d := dev.must("devtools_diff", map[string]any{"from": removed - 1, "to": removed})
	if got := asJSON(d["changes"]); removed == 0 || !strings.Contains(got, `/Shop/Cart/1`) || strings.Contains(got, "/Shop/Page") {
		t.Fatalf("the diff across the removal (v%d): %s", removed, got)
	}

	for _, v := range []uint64{entries[0].Version, cur - 2, cur} {
		r := dev.must("devtools_replay", map[string]any{"version": v})
		if r["matches"] != true || uint64(r["version"].(float64)) != v {
			t.Fatalf("replay to v%d: %s", v, asJSON(r))
		}
	}

	out, _, isErr := dev.call("devtools_dispatch", map[string]any{"messages": []any{
		map[string]any{"type": "shop.GoCatalog", "message": map[string]any{}},
	}})
	if !isErr || out["error"] != "DevtoolsDispatchDisabled" {
		t.Fatalf("dispatch while not enabled: %v %s", isErr, asJSON(out))
	}

	t.Run("a wrong token is refused", func(t *testing.T) { wrongTokenRefused(t, project, reg) })
	t.Run("the TypeScript client answers the same", func(t *testing.T) { sameThroughTypeScript(t, project, reg, dev.log) })
}

// wrongTokenRefused asks the attached shop's devtools endpoint, as the
// registry lists it, with a token one character off: 401.
func wrongTokenRefused(t *testing.T, project, reg string) {
	e, err := registry.Newest(reg, project)
	if err != nil {
		t.Fatal(err)
	}
	wrong := []byte(e.Token)
	wrong[0] ^= 1
	for _, tok := range []string{string(wrong), ""} {
		req, _ := http.NewRequest(http.MethodPost, e.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("with a token %v: %d; want 401", tok != "", resp.StatusCode)
		}
	}
}

// sameThroughTypeScript makes the calls again with the official
// TypeScript client through the command, and wants the same answers.
func sameThroughTypeScript(t *testing.T, project, reg string, calls []devCall) {
	peer.Program(t, "node")
	dir := peer.NodeModules(t, "../../cmd/foldagent-devtools/testdata/node", "@modelcontextprotocol/sdk")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "calls.mjs", testbin.Build(t, "cmd/foldagent-devtools"), project, reg, asJSON(calls))
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript client: %v", err)
	}
	var got []devCall
	for line := range strings.Lines(string(out)) {
		var c devCall
		if json.Unmarshal([]byte(line), &c) == nil && c.Name != "" {
			got = append(got, c)
		}
	}
	if len(got) != len(calls) {
		t.Fatalf("the TypeScript client made %d calls of %d", len(got), len(calls))
	}
	for i, want := range calls {
		if !reflect.DeepEqual(got[i], devCall{Name: want.Name, IsError: want.IsError, Text: want.Text}) {
			t.Errorf("%s %v: TypeScript answered %v %.300s, go-sdk %v %.300s", want.Name, want.Arguments, got[i].IsError, got[i].Text, want.IsError, want.Text)
		}
	}
}
