package nativeagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/foldagent/foldagent/nativeagent"
)

// A shelf of notes, and the one action on it.
type shelf struct{ Notes []string }

type PinNote struct {
	Text string `json:"text" jsonschema:"the note's text"`
}

// A contract served as Agent Native actions: the catalogue the framework
// registers from, and one action called over HTTP with a bearer token.
func ExampleNewHandler() {
	pin := agent.Expose(agent.Variant[PinNote, shelf, agent.NoPrincipal]{Name: "pin_note", Description: "Pin a note to the shelf."})
	c := agent.Make(agent.Definition[shelf, agent.NoPrincipal]{Capabilities: []agent.Capability[shelf, agent.NoPrincipal]{pin}})
	prog := loop.New(loop.Funcs(func() (shelf, loop.Cmd[any]) { return shelf{}, nil },
		func(m shelf, msg any) (shelf, loop.Cmd[any]) {
			if n, ok := msg.(PinNote); ok {
				m.Notes = append(slices.Clone(m.Notes), n.Text)
			}
			return m, nil
		}), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go prog.Run(ctx)

	h, err := nativeagent.NewHandler(nativeagent.Options{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if token != "s3cret" {
				return nil, auth.ErrInvalidToken
			}
			return mcpagent.TokenFor("ana", agent.NoPrincipal{}), nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (nativeagent.Runtime, error) {
			return agent.Bind(c, prog, nil)
		},
	})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	call := func(method, path, body string) string {
		req, _ := http.NewRequest(method, srv.URL+nativeagent.DefaultPrefix+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer s3cret")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		var res nativeagent.Result
		b, _ := io.ReadAll(resp.Body)
		_ = json.Unmarshal(b, &res)
		return fmt.Sprintf("%d ok=%v tag=%q refusal=%q %s", resp.StatusCode, res.OK, res.Tag, res.Refusal, res.Message)
	}
	fmt.Println(call("POST", "/actions/pin_note", `{"text":"buy milk"}`))
	fmt.Println(call("POST", "/actions/pin_note", `{"text":7}`))
	fmt.Println(prog.Model().Notes)
	// Output:
	// 200 ok=true tag="PinNote" refusal="" Dispatched PinNote
	// 400 ok=false tag="" refusal="AgentInvalidInputError" The input for "pin_note" does not match its input schema.
	// [buy milk]
}
