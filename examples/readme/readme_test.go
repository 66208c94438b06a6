package readme

import (
	"os"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// The Go files the README's Go blocks are taken from.
var sources = []string{"readme.go", "sixty/main.go", "serve/main.go", "../formapproval/main.go", "bubbletea/main.go"}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// blocks returns the fenced blocks of the given language in text, each
// without its fences.
func blocks(text, lang string) []string {
	var out []string
	for _, b := range strings.Split(text, "```"+lang+"\n")[1:] {
		out = append(out, b[:strings.Index(b, "```")])
	}
	return out
}

// section returns the README's text from heading to the next heading of
// the same level.
func section(t *testing.T, readme, heading string) string {
	t.Helper()
	i := strings.Index(readme, heading+"\n")
	if i < 0 {
		t.Fatalf("README has no %q", heading)
	}
	rest := readme[i+len(heading):]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// Every Go block of README.md is a run of lines of one of the sources, so
// the README shows code that compiles against the current API. A block
// may leave lines out, marked by a line starting "// ...", but each run
// between such marks must appear in a source as is.
func TestREADMEBlocksAreCompiledCode(t *testing.T) {
	readme := read(t, "../../README.md")
	var code []string
	for _, s := range sources {
		code = append(code, read(t, s))
	}
	bs := blocks(readme, "go")
	if len(bs) < 4 {
		t.Fatalf("README has %d Go blocks; expected sixty seconds, serving (two) and completion", len(bs))
	}
	for i, block := range bs {
		for _, run := range runs(block) {
			found := false
			for _, c := range code {
				found = found || strings.Contains(c, run)
			}
			if !found {
				t.Errorf("README Go block %d has lines that are in none of %v:\n%s", i+1, sources, run)
			}
		}
	}
}

// runs splits a block at its "// ..." lines.
func runs(block string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.SplitAfter(block, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "// ...") {
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line)
	}
	out = append(out, cur.String())
	var kept []string
	for _, r := range out {
		if strings.TrimSpace(r) != "" {
			kept = append(kept, r)
		}
	}
	return kept
}

// The sixty-seconds block is a whole program, compiled and run (its
// Example), so it compiles as pasted; the output the README shows is the
// Example's.
func TestSixtySecondsIsAWholeProgram(t *testing.T) {
	readme := read(t, "../../README.md")
	sec := section(t, readme, "## Sixty seconds")
	gos := blocks(sec, "go")
	if len(gos) == 0 || gos[0] != read(t, "sixty/main.go") {
		t.Fatal("the first Go block of Sixty seconds is not sixty/main.go, whole")
	}
	texts := blocks(sec, "text")
	example := read(t, "sixty/main_test.go")
	_, out, ok := strings.Cut(example, "// Output:\n")
	if !ok || len(texts) == 0 {
		t.Fatal("no output to compare")
	}
	var want strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if l, ok := strings.CutPrefix(strings.TrimSpace(line), "// "); ok {
			want.WriteString(l + "\n")
		}
	}
	if texts[0] != want.String() {
		t.Fatalf("README shows output\n%s\nthe Example prints\n%s", texts[0], want.String())
	}
}

// Serving your own app: the blocks are the whole of serve/main.go but for
// the application, which is sixty/main.go's, line for line; the tokens
// file shown is the one the serve test runs with.
func TestServeYourOwnAppIsTheWholeProgram(t *testing.T) {
	readme := read(t, "../../README.md")
	sec := section(t, readme, "## Serve your own app")
	six, srv := read(t, "sixty/main.go"), read(t, "serve/main.go")
	app := func(src string) string {
		return src[strings.Index(src, "// Your application, as it is"):strings.Index(src, "func main() {")]
	}
	if app(six) != app(srv) {
		t.Fatal("serve/main.go's application and contract differ from sixty/main.go's")
	}
	var shown strings.Builder
	for _, b := range blocks(sec, "go") {
		shown.WriteString(b)
	}
	// The one "// ..." line, and the blank line after it, stand for the
	// application.
	lines := strings.SplitAfter(shown.String(), "\n")
	var whole strings.Builder
	elided := 0
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "// ...") && i+1 < len(lines) && lines[i+1] == "\n" {
			whole.WriteString(app(srv))
			elided++
			i++
			continue
		}
		whole.WriteString(lines[i])
	}
	if elided != 1 || whole.String() != srv {
		t.Fatalf("the section's Go blocks, joined, with the application for its \"// ...\" line, are not serve/main.go:\n%s", shown.String())
	}
	if js := blocks(sec, "json"); len(js) != 1 || js[0] != read(t, "serve/testdata/tokens.json") {
		t.Fatalf("the tokens file shown is not serve/testdata/tokens.json: %q", js)
	}
}

// The completion block's capabilities declare what the README says.
func TestCompletionBlock(t *testing.T) {
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

// The README's host/loop deck: a request heard is drawn, and a y before
// its card has settled answers nothing.
func TestScreenDrawsTheCardAndWaitsForItToSettle(t *testing.T) {
	req := agent.ApprovalRequest{ID: "r1", Capability: "pay", Summary: "Pay for the order under review.", Input: []byte(`{"order":"order-1"}`)}
	s := screen{}.heard(agent.ApprovalAsked{Request: req})
	lines := s.draw(80)
	if !strings.Contains(strings.Join(lines, "\n"), "Pay for the order under review.") {
		t.Fatalf("the card: %q", lines)
	}
	var answers []agent.ApprovalAnswer
	s = s.pressed("y", func(a agent.ApprovalAnswer) { answers = append(answers, a) })
	if len(answers) != 0 {
		t.Fatalf("a y before the card settled answered it: %+v", answers)
	}
	if len(s.draw(80)) == 0 {
		t.Fatal("the card went away on a dropped key")
	}
}
