//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/testbin"
)

// walkTo is the walk of issue 26, items 3 and 12: open a product, add it
// to the cart, go to the cart, check out.
var walkTo = []struct {
	step  string
	input map[string]any
}{{"open-product", map[string]any{"sku": "dress-red"}}, {"add-to-cart", nil}, {"go-cart", nil}, {"checkout", nil}}

// walkOnce starts the real shop binary over stdio, walks to checkout
// through the fixed journey tool, and returns the transcript (each call
// and its answer, one per line) and each step's answer.
func walkOnce(t *testing.T, bin string) (transcript string, steps map[string]map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "-mcp", "stdio", "-tools", "fixed")
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "walker", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var b strings.Builder
	call := func(name string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		req, _ := json.Marshal(args)
		fmt.Fprintf(&b, "%s %s\n%s\n", name, req, text)
		var m map[string]any
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return m
	}
	call("shop.journey.purchase", nil)
	steps = map[string]map[string]any{}
	for _, st := range walkTo {
		args := map[string]any{"step": st.step}
		if st.input != nil {
			args["input"] = st.input
		}
		r := call("shop.journey.purchase", args)
		steps[st.step] = r
		if st.step == "add-to-cart" {
			if id, _ := r["transitionId"].(string); id != "" {
				call("shop.did_it_work", map[string]any{"transitionId": id})
			}
		}
	}
	call("shop.whats_here", nil)
	return b.String(), steps
}

// ids and times vary from run to run by design; everything else in an
// answer is a function of the calls made.
var (
	normTimes = regexp.MustCompile(`"\d{4}-\d\d-\d\dT[0-9:.]+(Z|[+-]\d\d:\d\d)"`)
	normIDs   = regexp.MustCompile(`\b(t|ask|w)-[0-9a-zA-Z_-]{4,}\b`)
)

// normalizeWalk puts placeholders for a walk's ids and times
// (sessions_test.go's normalize does the same for its lines).
func normalizeWalk(s string) string {
	s = normTimes.ReplaceAllString(s, `"<time>"`)
	return normIDs.ReplaceAllString(s, "<id>")
}

// TestWalkToCheckoutRepeats walks the real binary to checkout again and
// again, each walk a fresh process over stdio (issue 26, items 3 and 12):
// add-to-cart's answer says its effect and its writes were observed every
// time, and every walk's transcript is byte-identical to the first, apart
// from ids and times. Before the fix, the app's own activity-panel
// Message could be taken for add-to-cart's Model change (2 of 7 walks
// answered effectVerified:false), and an arrival could land after the
// answer was written.
func TestWalkToCheckoutRepeats(t *testing.T) {
	bin := testbin.Build(t, "examples/shop")
	runs := 8
	if testing.Short() {
		runs = 3
	}
	var first string
	wrong, differ := 0, 0
	for i := range runs {
		transcript, steps := walkOnce(t, bin)
		add := steps["add-to-cart"]
		bad := add["effectVerified"] != true || add["writesObserved"] != true
		if bad {
			t.Errorf("walk %d: add-to-cart answered effectVerified %v, writesObserved %v: %v", i, add["effectVerified"], add["writesObserved"], add)
		}
		// Each step that goes to a page answers its arrival observed,
		// the first in the words that say what that means (item 12),
		// the others without saying it again.
		for i, step := range []string{"open-product", "go-cart", "checkout"} {
			if r := steps[step]; r["arrival"] != "observed" || (i == 0) != strings.Contains(fmt.Sprint(r["arrivalMeans"]), "later reported") {
				bad = true
				t.Errorf("walk %d: %s answered arrival %v (%v)", i, step, r["arrival"], r["arrivalMeans"])
			}
		}
		if bad {
			wrong++
		}
		n := normalizeWalk(transcript)
		if i == 0 {
			first = n
			t.Logf("transcript:\n%s", n)
			continue
		}
		if n != first {
			differ++
			t.Errorf("walk %d: the transcript differs from the first:\n%s", i, firstDiff(first, n))
		}
	}
	t.Logf("%d of %d walks answered a step wrong; %d transcripts differed from the first", wrong, runs, differ)
}

// firstDiff shows where two transcripts first part: the line, and the
// text around the first byte that differs.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		x, y := al[i], bl[i]
		if x == y {
			continue
		}
		at := 0
		for at < min(len(x), len(y)) && x[at] == y[at] {
			at++
		}
		from := max(0, at-120)
		return fmt.Sprintf("line %d, byte %d:\n first: …%s\n  this: …%s", i, at, x[from:min(len(x), at+200)], y[from:min(len(y), at+200)])
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}
