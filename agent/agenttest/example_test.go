package agenttest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agenttest"
)

type counter struct{ N int }

type Reset struct{}

func counterContract(description string) *agent.Contract[counter, agent.NoPrincipal] {
	return agent.Make(agent.Definition[counter, agent.NoPrincipal]{Capabilities: []agent.Capability[counter, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Reset, counter, agent.NoPrincipal]{Description: description}),
	}})
}

// printer stands in for the *testing.T of an application's test, printing
// what Golden reports.
type printer struct {
	testing.TB
	dir string // shown as $DIR
}

func (printer) Helper()                   {}
func (printer) Fatal(a ...any)            { fmt.Println(a...) }
func (printer) Fatalf(f string, a ...any) { fmt.Printf(f+"\n", a...) }
func (p printer) Errorf(f string, a ...any) {
	// Keep the example's output to the first lines of the diff.
	msg := strings.ReplaceAll(fmt.Sprintf(f, a...), p.dir, "$DIR")
	lines := strings.SplitN(msg, "\n", 6)
	fmt.Println(strings.Join(lines[:5], "\n"))
}

// In an application's own test, Golden keeps the committed files true:
//
//	func TestAgentContract(t *testing.T) {
//		agenttest.Golden(t, contract(), "agent.json")
//		agenttest.Golden(t, contract(), "AGENT.md")
//	}
//
// When the contract changes, the test fails with a diff like this one;
// go test -update rewrites the files after review.
func ExampleGolden() {
	dir, _ := os.MkdirTemp("", "agenttest")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "agent.json")
	// The committed manifest, from an earlier version of the contract.
	_ = os.WriteFile(path, agent.Manifest(counterContract("Reset the counter.")), 0o644)

	agenttest.Golden(printer{dir: dir}, counterContract("Set the counter back to zero."), path)
	// Output:
	// agenttest: $DIR/agent.json no longer matches the contract (run the tests with -update to rewrite it after review):
	//         "name": "reset",
	//         "tag": "Reset",
	// -       "description": "Reset the counter.",
	// +       "description": "Set the counter back to zero.",
}
