package agenttest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

type model struct{ N int }

type Bump struct {
	By int `json:"by"`
}

func contract(desc string) *agent.Contract[model, agent.NoPrincipal] {
	return agent.Make(agent.Definition[model, agent.NoPrincipal]{Capabilities: []agent.Capability[model, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Bump, model, agent.NoPrincipal]{Description: desc}),
	}})
}

// recorder captures failures instead of failing the real test.
type recorder struct {
	testing.TB
	failed bool
	msgs   []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, a ...any) {
	r.failed = true
	r.msgs = append(r.msgs, sprintf(f, a...))
}
func (r *recorder) Fatalf(f string, a ...any) {
	r.failed = true
	r.msgs = append(r.msgs, sprintf(f, a...))
}
func (r *recorder) Fatal(a ...any) { r.failed = true }

func TestGoldenMatchesAndDetectsDrift(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"agent.json", "AGENT.md"} {
		path := filepath.Join(dir, name)
		want, err := render(contract("Bump the counter."), path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		ok := &recorder{TB: t}
		Golden(ok, contract("Bump the counter."), path)
		if ok.failed {
			t.Fatalf("%s: matching file reported as drift: %v", name, ok.msgs)
		}
		drift := &recorder{TB: t}
		Golden(drift, contract("Add to the counter."), path)
		if !drift.failed {
			t.Fatalf("%s: a changed description was not detected", name)
		}
		msg := strings.Join(drift.msgs, "\n")
		if !strings.Contains(msg, "-") || !strings.Contains(msg, "Bump the counter.") || !strings.Contains(msg, "+") || !strings.Contains(msg, "Add to the counter.") || !strings.Contains(msg, "-update") {
			t.Fatalf("%s: failure lacks a diff or the -update hint:\n%s", name, msg)
		}
	}
}

func TestGoldenMissingFileAndBadExtension(t *testing.T) {
	r := &recorder{TB: t}
	Golden(r, contract("x"), filepath.Join(t.TempDir(), "none.json"))
	if !r.failed || !strings.Contains(strings.Join(r.msgs, ""), "-update") {
		t.Fatalf("missing file: %v", r.msgs)
	}
	if _, err := render(contract("x"), "agent.yaml"); err == nil {
		t.Fatal("unknown extension accepted")
	}
}

func TestDiff(t *testing.T) {
	d := diff("a\nb\nc\nd\ne\nf\ng", "a\nb\nc\nD\ne\nf\ng")
	want := "  b\n  c\n- d\n+ D\n  e\n  f\n"
	if d != want {
		t.Fatalf("diff =\n%q\nwant\n%q", d, want)
	}
	if diff("same", "same") != "" {
		t.Fatal("equal texts must give an empty diff")
	}
}
