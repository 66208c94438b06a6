package mcpagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// A notes application whose creation finishes on a fact that carries the
// new note's id, which the result must hand to the model.

type noteMsg interface{ isNote() }

type NoteItem struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

type noteModel struct{ Notes []NoteItem }

type NoteInput struct {
	Text string `json:"text"`
}
type CreateNote struct {
	Text, Request string
}
type NoteCreated struct {
	NoteItem NoteItem `json:"note"`
	Request  string   `json:"request"`
}
type RenameNote struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}
type CountNotes struct{}
type ClearNotes struct{}

func (CreateNote) isNote()  {}
func (NoteCreated) isNote() {}
func (RenameNote) isNote()  {}
func (CountNotes) isNote()  {}
func (ClearNotes) isNote()  {}

func noteUpdate(m noteModel, msg noteMsg) (noteModel, loop.Cmd[noteMsg]) {
	switch msg := msg.(type) {
	case CreateNote:
		n := NoteItem{ID: fmt.Sprintf("n%d", len(m.Notes)+1), Text: msg.Text}
		m.Notes = append(slices.Clone(m.Notes), n)
		return m, func(_ context.Context, send func(noteMsg)) { send(NoteCreated{NoteItem: n, Request: msg.Request}) }
	case RenameNote:
		notes := slices.Clone(m.Notes)
		for i := range notes {
			if notes[i].ID == msg.ID {
				notes[i].Text = msg.Text
			}
		}
		m.Notes = notes
	case ClearNotes:
		m.Notes = nil
	}
	return m, nil
}

type noteCall = agent.Call[noteModel, agent.NoPrincipal]

func notesRuntime(t *testing.T) *agent.Runtime[noteModel, noteMsg, agent.NoPrincipal] {
	t.Helper()
	prog := loop.New[noteModel, noteMsg](loop.Funcs(func() (noteModel, loop.Cmd[noteMsg]) { return noteModel{}, nil }, noteUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	c := agent.Make(agent.Definition[noteModel, agent.NoPrincipal]{
		Capabilities: []agent.Capability[noteModel, agent.NoPrincipal]{
			agent.ExposeMapped(agent.Mapped[NoteInput, CreateNote, noteModel, agent.NoPrincipal]{
				Name:        "create_note",
				Description: "Create a note.",
				ToMessage: func(in NoteInput, c noteCall) CreateNote {
					return CreateNote{Text: in.Text, Request: c.Invocation.ID}
				},
				Completion: agent.CompleteOn(agent.On(func(_ NoteInput, got NoteCreated, inv agent.Invocation) bool {
					return got.Request == inv.ID
				})).Within(5 * time.Second),
			}),
			agent.Expose(agent.Variant[RenameNote, noteModel, agent.NoPrincipal]{
				Name:        "rename_note",
				Description: "Give a note new text.",
				Completion: agent.When(func(m noteModel) []NoteItem { return m.Notes }, func(notes []NoteItem, in RenameNote) bool {
					return slices.Contains(notes, NoteItem(in))
				}).Within(5 * time.Second),
			}),
			agent.Expose(agent.Variant[CountNotes, noteModel, agent.NoPrincipal]{
				Name: "count_notes", Description: "Count the notes.", ReadOnly: true,
			}),
			agent.Expose(agent.Variant[ClearNotes, noteModel, agent.NoPrincipal]{
				Name: "clear_notes", Description: "Remove every note.", Destructive: true,
			}),
		},
	})
	return agent.MustBind[noteModel, noteMsg, agent.NoPrincipal](c, prog, nil)
}

// listedTools returns the tools a client sees, by name.
func listedTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := make(map[string]*mcp.Tool)
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	return tools
}

// resolved compiles a schema a client received, with the SDK's own JSON
// Schema library.
func resolved(t *testing.T, schema any) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("not a JSON Schema: %v\n%s", err, b)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema does not resolve: %v\n%s", err, b)
	}
	return r
}

// checkStructured validates a result's structured content against the
// tool's output schema, as a client is asked to, and checks that the text
// block after the authored sentence repeats it (copyOf).
func checkStructured(t *testing.T, tool *mcp.Tool, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	sc := structured(t, res)
	if err := resolved(t, tool.OutputSchema).Validate(sc); err != nil {
		t.Fatalf("%s: structuredContent does not meet the tool's outputSchema: %v\n%v", tool.Name, err, sc)
	}
	if len(res.Content) != 2 {
		t.Fatalf("%s: %d content blocks, want the sentence and the JSON", tool.Name, len(res.Content))
	}
	var repeated map[string]any
	if err := json.Unmarshal([]byte(res.Content[1].(*mcp.TextContent).Text), &repeated); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(repeated)
	b, _ := json.Marshal(copyOf(sc, text(res)))
	if string(a) != string(b) {
		t.Fatalf("%s: the text block %s does not repeat structuredContent %s", tool.Name, a, b)
	}
	return sc
}

// copyOf is what a result's JSON text block repeats of its structured
// content sc: all of it but what the request and the authored sentence
// already say (the capability, the tag, the invocation, and a refusal's
// message when it is the sentence).
func copyOf(sc map[string]any, sentence string) map[string]any {
	out := maps.Clone(sc)
	delete(out, "capability")
	delete(out, "tag")
	delete(out, "invocation")
	if out["message"] == sentence {
		delete(out, "message")
	}
	return out
}

func TestResultCarriesTheCreatedIDAndMeetsTheOutputSchema(t *testing.T) {
	_, cs := connect(t, notesRuntime(t), nil, nil)
	tools := listedTools(t, cs)
	create, rename := tools["create_note"], tools["rename_note"]
	if create == nil || create.OutputSchema == nil || rename == nil || rename.OutputSchema == nil {
		t.Fatalf("tools without an outputSchema: %+v", tools)
	}

	res := call(t, cs, "create_note", map[string]any{"text": "buy milk"})
	if res.IsError || text(res) != "Completed: NoteCreated" {
		t.Fatalf("create_note: isError %v, %q", res.IsError, text(res))
	}
	sc := checkStructured(t, create, res)
	completion, _ := sc["completion"].(map[string]any)
	message, _ := completion["message"].(map[string]any)
	note, _ := message["note"].(map[string]any)
	id, _ := note["id"].(string)
	if id != "n1" || note["text"] != "buy milk" {
		t.Fatalf("completion = %v, want the created note", completion)
	}
	invocation, _ := sc["invocation"].(map[string]any)
	if message["request"] != invocation["id"] {
		t.Fatalf("the completing Message belongs to another call: %v", sc)
	}

	// The model acts on what it was given.
	res = call(t, cs, "rename_note", map[string]any{"id": id, "text": "buy oat milk"})
	if res.IsError || text(res) != "Completed: RenameNote (its condition on state holds)" {
		t.Fatalf("rename_note: isError %v, %q", res.IsError, text(res))
	}
	checkStructured(t, rename, res)

	// A refusal meets the schema too: clients validate it all the same.
	res = call(t, cs, "create_note", map[string]any{"txt": "x"})
	if !res.IsError {
		t.Fatal("a misspelled member was accepted")
	}
	checkStructured(t, create, res)
}

func TestInvalidInputTellsWhereAndSendsTheSchema(t *testing.T) {
	_, cs := connect(t, notesRuntime(t), nil, nil)
	create := listedTools(t, cs)["create_note"]
	wantSchema, _ := json.Marshal(create.InputSchema)
	var sentence string
	for _, tc := range []struct {
		name string
		args any
		want []agent.InputProblem
	}{
		{"misspelled", map[string]any{"Text": "secret"}, []agent.InputProblem{{Path: "/Text", Code: agent.ProblemUndeclared}, {Path: "/text", Code: agent.ProblemMissing}}},
		{"missing", map[string]any{}, []agent.InputProblem{{Path: "/text", Code: agent.ProblemMissing}}},
		{"wrong type", map[string]any{"text": 31337}, []agent.InputProblem{{Path: "/text", Code: agent.ProblemWrongType}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, cs, "create_note", tc.args)
			if !res.IsError {
				t.Fatal("accepted")
			}
			if sentence == "" {
				sentence = text(res)
			} else if text(res) != sentence {
				t.Fatalf("sentence %q, want the same %q for every kind of mistake", text(res), sentence)
			}
			b, _ := json.Marshal(res.StructuredContent)
			var data struct {
				Tag         string               `json:"_tag"`
				Message     string               `json:"message"`
				Problems    []agent.InputProblem `json:"problems"`
				InputSchema json.RawMessage      `json:"inputSchema"`
			}
			if err := json.Unmarshal(b, &data); err != nil {
				t.Fatal(err)
			}
			if data.Tag != agent.TagInvalidInput || data.Message != sentence || !slices.Equal(data.Problems, tc.want) {
				t.Fatalf("structuredContent = %s, want problems %v", b, tc.want)
			}
			var got, want any
			_ = json.Unmarshal(data.InputSchema, &got)
			_ = json.Unmarshal(wantSchema, &want)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("inputSchema = %s, want the tool's %s", data.InputSchema, wantSchema)
			}
			for _, c := range res.Content {
				if s := c.(*mcp.TextContent).Text; strings.Contains(s, "secret") || strings.Contains(s, "31337") {
					t.Fatalf("the refusal restates the value: %s", s)
				}
			}
		})
	}
}

func TestToolAnnotationsFollowTheContract(t *testing.T) {
	_, cs := connect(t, notesRuntime(t), nil, nil)
	tools := listedTools(t, cs)
	if a := tools["count_notes"].Annotations; a == nil || !a.ReadOnlyHint || a.DestructiveHint != nil {
		t.Fatalf("count_notes annotations %+v, want read-only", a)
	}
	if a := tools["clear_notes"].Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Fatalf("clear_notes annotations %+v, want destructive", a)
	}
	// Nothing declared, nothing claimed: the client keeps MCP's defaults.
	if a := tools["create_note"].Annotations; a != nil {
		t.Fatalf("create_note annotations %+v, want none", a)
	}
	// A tool without a completion contract still declares its result.
	res := call(t, cs, "count_notes", map[string]any{})
	if res.IsError || text(res) != "Dispatched CountNotes" {
		t.Fatalf("count_notes: %v %q", res.IsError, text(res))
	}
	if sc := checkStructured(t, tools["count_notes"], res); sc["completion"] != nil {
		t.Fatalf("a capability without completion reported one: %v", sc)
	}
}

// TestTodoBinaryHandsOverTheCreatedID drives the real todo example over
// stdio with the SDK's client, as a model's host would: it creates a todo,
// reads the new id from the result (no resource read), and renames that
// todo by it.
func TestTodoBinaryHandsOverTheCreatedID(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a command; skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(todoServer(t), "-mcp", "stdio", "-data", filepath.Join(t.TempDir(), "todos.json"))
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "outside-in", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if info := cs.InitializeResult().ServerInfo; info.Name != "foldagent-todo" {
		t.Fatalf("serverInfo %+v, want the application's name", info)
	}
	tools := listedTools(t, cs)
	for name, tool := range tools {
		if tool.OutputSchema == nil {
			t.Fatalf("%s has no outputSchema", name)
		}
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": "milk"}})
	if err != nil || res.IsError || text(res) != "Completed: CreatedTodo" {
		t.Fatalf("create_todo: %v %+v", err, res)
	}
	sc := checkStructured(t, tools["create_todo"], res)
	var created struct {
		Completion struct {
			Message struct {
				Todo struct {
					ID    string `json:"id"`
					Title string `json:"title"`
				} `json:"todo"`
			} `json:"message"`
		} `json:"completion"`
	}
	b, _ := json.Marshal(sc)
	if err := json.Unmarshal(b, &created); err != nil || created.Completion.Message.Todo.ID == "" || created.Completion.Message.Todo.Title != "milk" {
		t.Fatalf("structuredContent %s carries no created todo", b)
	}
	id := created.Completion.Message.Todo.ID

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "rename_todo", Arguments: map[string]any{"id": id, "title": "oat milk"}})
	if err != nil || res.IsError || text(res) != "Completed: RenameTodo (its condition on state holds)" {
		t.Fatalf("rename_todo %s: %v %+v", id, err, res)
	}
	checkStructured(t, tools["rename_todo"], res)

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "app://todos"})
	if err != nil || len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, `"id":"`+id+`","title":"oat milk"`) {
		t.Fatalf("app://todos after the rename: %v %+v", err, read)
	}
}
