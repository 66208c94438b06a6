package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "formapproval:", err)
		os.Exit(1)
	}
}

// TypeText is what an agent sends: text for the form's focused field.
type TypeText struct {
	Text string `json:"text" jsonschema:"The text to type into the field the person is on."`
}

// contract lets an agent type into the form, each time with the
// person's approval. It reads nothing of the form: huh's Form changes in
// place on Bubble Tea's goroutine, so an agent's view of it would race.
func contract() *agent.Contract[model, agent.NoPrincipal] {
	return agent.Make(agent.Definition[model, agent.NoPrincipal]{
		Context: agent.Project(func(model) struct{} { return struct{}{} }),
		Capabilities: []agent.Capability[model, agent.NoPrincipal]{
			agent.ExposeMapped(agent.Mapped[TypeText, tea.PasteMsg, model, agent.NoPrincipal]{
				Name:        "type_text",
				Description: "Type text into the form field the person is on, once the person approves it in the terminal.",
				ToMessage: func(in TypeText, _ agent.Call[model, agent.NoPrincipal]) tea.PasteMsg {
					return tea.PasteMsg{Content: in.Text}
				},
				Approval: &agent.Approval[TypeText, model, agent.NoPrincipal]{Summary: "Type this text into the form."},
			}),
		},
	})
}

// run is the program's main, changed from tea.NewProgram(newModel()).Run()
// to run under teahost with approvals on. -type makes an agent, in this
// process, ask to type its text (a stand-in for one calling over MCP).
func run() error {
	text := flag.String("type", "", "an agent in this process asks to type this text into the form")
	flag.Parse()
	// huh's Form changes in place, as Bubble Tea models may; the model
	// obligation's check would report every Update (see teahost).
	host := teahost.New[model, tea.Msg](newModel(), &teahost.Options{NoCheck: true, Approvals: &teahost.ApprovalOptions{}})
	rt, err := agent.Bind(contract(), host, nil)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if *text != "" {
		go func() {
			ctx := agent.WithCaller(ctx, "demo-agent")
			in, _ := json.Marshal(TypeText{Text: *text})
			_, _ = rt.DispatchUnknown(ctx, "type_text", in, agent.Invocation{Transport: agent.MCP})
		}()
	}
	_, err = host.Run(ctx)
	return err
}
