package agenttest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

var update *bool

func init() {
	if f := flag.Lookup("update"); f == nil {
		update = flag.Bool("update", false, "rewrite golden agent contract files (agenttest.Golden)")
	}
}

func updating() bool {
	if update != nil {
		return *update
	}
	if f := flag.Lookup("update"); f != nil {
		return f.Value.String() == "true"
	}
	return false
}

// render returns what Golden compares for path: the manifest (agent.json)
// for a .json file, the Markdown documentation for a .md file.
func render[Model, P any](c *agent.Contract[Model, P], path string) ([]byte, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return agent.Manifest(c), nil
	case ".md", ".markdown":
		return []byte(agent.Markdown(c)), nil
	default:
		return nil, fmt.Errorf("agenttest: %s: use a .json (manifest) or .md (Markdown) file", path)
	}
}

// Golden fails t, with a line diff, when the file at path does not hold
// what the contract renders to (the manifest for a .json file, the Markdown for a .md file). Under -update it writes the
// file instead.
func Golden[Model, P any](t testing.TB, c *agent.Contract[Model, P], path string) {
	t.Helper()
	want, err := render(c, path)
	if err != nil {
		t.Fatal(err)
	}
	if updating() {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatalf("agenttest: cannot update %s: %v", path, err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("agenttest: cannot read %s (run the tests with -update to create it): %v", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("agenttest: %s no longer matches the contract (run the tests with -update to rewrite it after review):\n%s", path, diff(string(got), string(want)))
	}
}

// diff returns a line diff from old to new: lines only in old start with
// "-", lines only in new with "+", and up to two unchanged lines of context
// surround each change.
func diff(old, new string) string {
	a, b := strings.Split(old, "\n"), strings.Split(new, "\n")
	// Longest common subsequence table, from the end.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ops []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, line{' ', a[i]})
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, line{'-', a[i]})
			i++
		default:
			ops = append(ops, line{'+', b[j]})
			j++
		}
	}
	const context = 2
	var out strings.Builder
	lastShown := -1
	for k, op := range ops {
		if op.op == ' ' {
			continue
		}
		start := max(k-context, lastShown+1)
		if lastShown >= 0 && start > lastShown+1 {
			out.WriteString("...\n")
		}
		for c := start; c < k; c++ {
			fmt.Fprintf(&out, "  %s\n", ops[c].text)
		}
		fmt.Fprintf(&out, "%c %s\n", op.op, op.text)
		lastShown = k
		// Trailing context is printed when the next change (or the end) comes.
		end := min(k+context, len(ops)-1)
		next := k + 1
		for next < len(ops) && ops[next].op == ' ' && next <= end {
			next++
		}
		if next > end || next == len(ops) {
			for c := k + 1; c <= end; c++ {
				fmt.Fprintf(&out, "  %s\n", ops[c].text)
				lastShown = c
			}
		}
	}
	return out.String()
}
