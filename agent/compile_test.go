package agent_test

import (
	"encoding/json"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A completion contract written against another capability's input is a
// compile error, not a panic at Expose. Each snippet is built with the go
// command through an overlay (nothing is written into the module), and a
// control snippet that must compile proves the harness itself works.
func TestCompletionMismatchDoesNotCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go snippets with the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(build.Default.GOROOT, "bin", "go")
		if _, err := os.Stat(goCmd); err != nil {
			t.Skip("no go command to build the snippets with")
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	const prelude = `package snippet

import (
	"context"

	"github.com/foldagent/foldagent/agent"
)

type Model struct{ Title string }
type User struct{}
type CreateInput struct{ Title string ` + "`json:\"title\"`" + ` }
type Create struct{ Title, RequestID string }
type Created struct{ RequestID string }
type Rename struct{ Title string ` + "`json:\"title\"`" + ` }

var _ = context.Background
`
	snippets := []struct {
		name, body string
		compiles   bool
	}{
		{"control", `
var _ = agent.ExposeMapped(agent.Mapped[CreateInput, Create, Model, User]{
	Description: "Create.",
	ToMessage:   func(in CreateInput, call agent.Call[Model, User]) Create { return Create{in.Title, call.Invocation.ID} },
	Authorize:   func(_ context.Context, in CreateInput, _ agent.Call[Model, User]) (agent.Decision, error) { return agent.Allow, nil },
	Completion: agent.CompleteOn(agent.On(func(_ CreateInput, got Created, inv agent.Invocation) bool { return got.RequestID == inv.ID })).
		FailOn(agent.OnType[CreateInput, Rename]()),
})
var _ = agent.Expose(agent.Variant[Rename, Model, User]{
	Description: "Rename.",
	Completion:  agent.When(func(m Model) string { return m.Title }, func(v string, in Rename) bool { return v == in.Title }),
})
`, true},
		{"correlate reads another input", `
var _ = agent.ExposeMapped(agent.Mapped[CreateInput, Create, Model, User]{
	Description: "Create.",
	ToMessage:   func(in CreateInput, call agent.Call[Model, User]) Create { return Create{} },
	Completion:  agent.CompleteOn(agent.On(func(_ Create, got Created, inv agent.Invocation) bool { return true })),
})
`, false},
		{"OnType for another input", `
var _ = agent.Expose(agent.Variant[Rename, Model, User]{
	Description: "Rename.",
	Completion:  agent.CompleteOn(agent.OnType[CreateInput, Created]()),
})
`, false},
		{"state predicate reads another input", `
var _ = agent.Expose(agent.Variant[Rename, Model, User]{
	Description: "Rename.",
	Completion:  agent.When(func(m Model) string { return m.Title }, func(v string, in CreateInput) bool { return true }),
})
`, false},
		{"authorize judges another input", `
var _ = agent.Expose(agent.Variant[Rename, Model, User]{
	Description: "Rename.",
	Authorize:   func(_ context.Context, in CreateInput, _ agent.Call[Model, User]) (agent.Decision, error) { return agent.Allow, nil },
})
`, false},
	}
	for _, sn := range snippets {
		t.Run(sn.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "snippet.go")
			if err := os.WriteFile(src, []byte(prelude+sn.body), 0o600); err != nil {
				t.Fatal(err)
			}
			// The snippet appears as a package inside this module, so it
			// imports agent as an application would.
			virtual := filepath.Join(wd, "internal", "compilesnippet", "snippet.go")
			overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{virtual: src}})
			ov := filepath.Join(dir, "overlay.json")
			if err := os.WriteFile(ov, overlay, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(goCmd, "build", "-overlay", ov, "./internal/compilesnippet")
			cmd.Dir = wd
			out, err := cmd.CombinedOutput()
			if sn.compiles {
				if err != nil {
					t.Fatalf("the control snippet does not compile: %v\n%s", err, out)
				}
				return
			}
			if err == nil {
				t.Fatal("the mismatched snippet compiled; the compiler should refuse it")
			}
			if !strings.Contains(string(out), "snippet.go") {
				t.Fatalf("the build failed for another reason:\n%s", out)
			}
		})
	}
}
