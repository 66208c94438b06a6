//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// threeShop is the real shop binary served headless over HTTP with the
// fixed tools, three MCP sessions on it, and the person's keyboard.
type threeShop struct {
	t     *testing.T
	keys  string
	audit string
	// transcript is every answer the script keeps, in order, as "who
	// tool args → answer".
	transcript []string
	answers    map[string][]map[string]any // by session
}

type session struct {
	shop *threeShop
	name string
	cs   *mcp.ClientSession
}

func startThreeShop(t *testing.T) (*threeShop, *session, *session, *session) {
	t.Helper()
	dir := t.TempDir()
	s := &threeShop{t: t, keys: filepath.Join(dir, "keys"), audit: filepath.Join(dir, "audit.jsonl"), answers: map[string][]map[string]any{}}
	if err := syscall.Mkfifo(s.keys, 0o600); err != nil {
		t.Fatal(err)
	}
	// A settle ceiling long enough that every quick fire comes to rest
	// before it is answered, so the answers are the same run to run.
	url := runHTTPShop(t, "-keys", s.keys, "-audit", s.audit, "-pay-delay", "20ms", "-settle-within", "3s")
	open := func(name string) *session {
		cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer ccancel()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).Connect(cctx,
			&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"s3cret"}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return &session{shop: s, name: name, cs: cs}
	}
	return s, open("A"), open("B"), open("C")
}

// call calls a tool and keeps the answer in the transcript.
func (s *session) call(name string, args map[string]any) map[string]any {
	s.shop.t.Helper()
	m, text := s.ask(name, args)
	a, _ := json.Marshal(args)
	s.shop.transcript = append(s.shop.transcript, s.name+" "+name+" "+string(a)+" → "+text)
	s.shop.answers[s.name] = append(s.shop.answers[s.name], m)
	return m
}

// ask calls a tool without keeping the answer (a poll).
func (s *session) ask(name string, args map[string]any) (map[string]any, string) {
	s.shop.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.shop.t.Fatalf("%s %s: %v", s.name, name, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		s.shop.t.Fatalf("%s %s: %v", s.name, name, err)
	}
	return m, text
}

// until polls a tool until ok, then keeps that one answer.
func (s *session) until(name string, args map[string]any, ok func(map[string]any) bool, meanwhile func()) map[string]any {
	s.shop.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if m, _ := s.ask(name, args); ok(m) {
			return s.call(name, args)
		}
		if time.Now().After(deadline) {
			m, text := s.ask(name, args)
			if ok(m) {
				return s.call(name, args)
			}
			s.shop.t.Fatalf("%s %s never answered as expected: %s", s.name, name, text)
		}
		if meanwhile != nil {
			meanwhile()
		}
		time.Sleep(20 * time.Millisecond) // the other process works meanwhile
	}
}

func (s *threeShop) types(keys string) {
	s.t.Helper()
	typeInto(s.t, s.keys, keys)
}

func facts(m map[string]any) string { f, _ := m["facts"].(string); return f }

func errorReason(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	r, _ := e["reason"].(string)
	return r
}

// threeSessionsScript is one run: A buys the red dress; B looks, tries to
// act on a view A has since moved (refused, nothing done), and tries to
// pay the order while A's payment waits for the person (refused as
// someone else's, not as its own earlier fire); C only reads; the person
// gives the address and approves A's payment. It returns the transcript.
func threeSessionsScript(t *testing.T) []string {
	shop, a, b, c := startThreeShop(t)
	for _, s := range []*session{a, b, c} {
		s.call("shop.whats_here", nil)
	}

	a.call("shop.journey.purchase", map[string]any{"step": "open-product", "input": map[string]any{"sku": "dress-red"}})
	seen := b.call("shop.whats_here", nil)
	a.call("shop.journey.purchase", map[string]any{"step": "add-to-cart"})
	// B acts on the product page as it saw it, before A's add: refused,
	// nothing done.
	stale := b.call("shop.do_action", map[string]any{"action": "add-to-cart", "expectedVersion": seen["version"]})
	if stale["reason"] != "STALE_CURSOR" {
		t.Fatalf("B's add on a view A moved: %v", stale)
	}
	c.call("shop.whats_here", nil)
	for _, step := range []string{"go-cart", "checkout"} {
		if r := a.call("shop.journey.purchase", map[string]any{"step": step}); r["effectStatus"] != "performed" {
			t.Fatalf("A %s: %v", step, r)
		}
	}
	shop.types("a2 Side St\r")
	a.until("shop.whats_here", nil, func(m map[string]any) bool { return strings.Contains(facts(m), "the person changed") }, nil)
	if r := a.call("shop.journey.purchase", map[string]any{"step": "open-review"}); r["effectStatus"] != "performed" {
		t.Fatalf("A open-review: %v", r)
	}
	pay := a.call("shop.journey.purchase", map[string]any{"step": "pay", "instance": "order-1"})
	id, _ := pay["transitionId"].(string)
	if pay["ok"] != true || id == "" {
		t.Fatalf("A's payment: %v", pay)
	}
	// A's payment waits for the person's approval; meanwhile B tries to
	// pay the same order and C looks.
	a.until("shop.did_it_work", map[string]any{"transitionId": id}, func(m map[string]any) bool { return m["judgment"] == "awaiting-human" }, nil)
	b.call("shop.do_action", map[string]any{"action": "pay", "instance": "order-1"})
	other := b.call("shop.do_action", map[string]any{"action": "pay", "instance": "order-1", "confirm": true})
	if other["reason"] == "PRIOR_FIRE_PENDING" {
		t.Fatalf("B never paid, yet was told its earlier fire is pending: %v", other)
	}
	if oid, _ := other["transitionId"].(string); oid != "" {
		other = b.until("shop.did_it_work", map[string]any{"transitionId": oid}, func(m map[string]any) bool { return m["settled"] == true }, nil)
	}
	if errorReason(other) != "PENDING_ELSEWHERE" || other["effectStatus"] == "performed" {
		t.Fatalf("B's payment while A's waits: %v", other)
	}
	c.call("shop.whats_here", nil)
	// The person approves A's payment in the app.
	a.until("shop.did_it_work", map[string]any{"transitionId": id}, func(m map[string]any) bool {
		return m["settled"] == true && m["effectStatus"] == "performed"
	}, func() { shop.types("y") })

	fa := facts(a.until("shop.whats_here", nil, func(m map[string]any) bool {
		return strings.Contains(facts(m), "DID happen — agent fired checkout.review.order.pay")
	}, nil))
	fb := facts(b.until("shop.whats_here", nil, func(m map[string]any) bool { return strings.Contains(facts(m), "another agent") }, nil))
	fc := facts(c.call("shop.whats_here", nil))
	// B, which saw the order paid by another (its facts above), pays it
	// anyway: the app refuses, and nothing is paid twice.
	again := b.call("shop.do_action", map[string]any{"action": "pay", "instance": "order-1", "confirm": true})
	if oid, _ := again["transitionId"].(string); oid != "" {
		again = b.until("shop.did_it_work", map[string]any{"transitionId": oid}, func(m map[string]any) bool { return m["settled"] == true }, nil)
	}
	if again["effectStatus"] == "performed" || again["ok"] == true && again["judgment"] == "done" {
		t.Fatalf("B paid an order another had paid: %v", again)
	}

	// Each session's facts: its own fires as its attempts, the others'
	// as another agent's changes, the person's address as the person's.
	if strings.Contains(fa, "another agent") {
		t.Errorf("A's facts name its own payment as another's: %s", fa)
	}
	for name, f := range map[string]string{"B": fb, "C": fc} {
		if strings.Contains(f, "DID happen") || strings.Contains(f, "agent fired checkout.review.order.pay") && !strings.Contains(f, "PENDING_ELSEWHERE") {
			t.Errorf("%s's facts list A's payment among its own attempts: %s", name, f)
		}
		if !strings.Contains(f, "another agent (not you") || !strings.Contains(f, "the person changed") {
			t.Errorf("%s's facts must name A's changes as another agent's and the address as the person's: %s", name, f)
		}
	}
	if !strings.Contains(fb, "PENDING_ELSEWHERE") || !strings.Contains(fb, "STALE_CURSOR") {
		t.Errorf("B's facts must hold its own two refused attempts: %s", fb)
	}
	if !strings.Contains(fc, "No actions have been performed") {
		t.Errorf("C made no attempt: %s", fc)
	}
	// Nobody is told of an earlier fire of theirs they never made.
	for _, name := range []string{"B", "C"} {
		for _, m := range shop.answers[name] {
			if b, _ := json.Marshal(m); bytes.Contains(b, []byte("PRIOR_FIRE_PENDING")) {
				t.Errorf("%s was told PRIOR_FIRE_PENDING: %s", name, b)
			}
		}
	}
	// Nothing was applied that its caller did not see: one add to cart
	// and one payment reached the app, both A's.
	dispatched := map[string]int{}
	raw, err := os.ReadFile(shop.audit)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var e struct{ Capability, Decision, Outcome string }
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatal(err)
		}
		if e.Decision == "dispatched" {
			dispatched[e.Capability]++
		}
	}
	if dispatched["add_to_cart"] != 1 || dispatched["pay"] != 1 {
		t.Errorf("calls that reached the app: %v", dispatched)
	}
	return shop.transcript
}

// Transcripts differ run to run only in ids, times and version numbers.
var (
	digitsIn = regexp.MustCompile(`(?i)("(?:[a-z]*id|[a-z]*version|at|timestamp|since|request)":\s*)("[^"]*"|\d+)`)
	idsIn    = regexp.MustCompile(`(#|t-|ask-|order-|stimulus:state#|version |now |\(v)\d+`)
)

func normalize(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		l = digitsIn.ReplaceAllString(l, `${1}"_"`)
		out[i] = idsIn.ReplaceAllString(l, "${1}N")
	}
	return out
}

// TestThreeSessionsOnOneShop drives the real binary over HTTP with three
// MCP sessions at once (see threeSessionsScript), twice: each run's
// assertions hold, and the two transcripts are the same bytes once ids,
// times and versions are normalized.
func TestThreeSessionsOnOneShop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the shop twice for several seconds")
	}
	first := normalize(threeSessionsScript(t))
	second := normalize(threeSessionsScript(t))
	if !slices.Equal(first, second) {
		for i := range max(len(first), len(second)) {
			var x, y string
			if i < len(first) {
				x = first[i]
			}
			if i < len(second) {
				y = second[i]
			}
			if x != y {
				t.Errorf("line %d differs:\n first: %s\nsecond: %s", i, x, y)
			}
		}
	}
	t.Logf("transcript (%d answers):\n%s", len(first), fmt.Sprint(strings.Join(first, "\n")))
}
