package readme

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// Every Go block of README.md is a run of lines of readme.go, so the README
// shows code that compiles against the current API.
func TestREADMEBlocksAreCompiledCode(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("readme.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	blocks := strings.Split(string(readme), "```go\n")[1:]
	if len(blocks) < 2 {
		t.Fatalf("README has %d Go blocks; expected the sixty-seconds and completion blocks", len(blocks))
	}
	for i, b := range blocks {
		block := b[:strings.Index(b, "```")]
		// A block may leave out lines of the file, marked "// ...", but
		// each run between such marks must appear in the file as is.
		for _, run := range strings.Split(block, "// ...\n") {
			if strings.TrimSpace(run) == "" {
				continue
			}
			if !strings.Contains(code, run) {
				t.Errorf("README Go block %d has lines that are not in readme.go:\n%s", i+1, run)
			}
		}
	}
}

type host struct {
	mu    sync.Mutex
	model Model
	sent  []Msg
}

func (h *host) Model() Model { h.mu.Lock(); defer h.mu.Unlock(); return h.model }
func (h *host) Dispatch(_ context.Context, m Msg) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sent = append(h.sent, m)
	return nil
}

// The README's code does what the README says it does.
func TestSixtySeconds(t *testing.T) {
	h := &host{}
	reply, err := sixtySeconds(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	if !reply.OK || reply.Text != "Dispatched CreateTodo" {
		t.Fatalf("reply = %+v", reply)
	}
	if len(h.sent) != 1 || h.sent[0] != (CreateTodo{Title: "Milk"}) {
		t.Fatalf("sent = %#v", h.sent)
	}
	if got := len(contract.Describe().Capabilities); got != 2 {
		t.Fatalf("capabilities = %d", got)
	}
	for _, c := range []*agent.Exposed[CreateInput, Model, User]{create} {
		if d := c.Descriptor(); d.Completion == nil || d.Completion.Success[0] != "CreatedTodo" {
			t.Fatalf("create completion = %+v", d.Completion)
		}
	}
	if d := rename.Descriptor(); d.Completion == nil || !d.Completion.State {
		t.Fatalf("rename completion = %+v", d.Completion)
	}
}

// The audit-and-traces block needs a JetStream server and an exporter to
// run; it is compiled here, and natsaudit and agentotel test what it does.
var _ = observability
