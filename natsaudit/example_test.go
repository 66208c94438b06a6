package natsaudit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/natsaudit"
)

// An audit log whose entries are kept on a JetStream stream: each Record
// returns once the stream has acknowledged the entry, and an entry
// published twice (a retry after a lost acknowledgement) is stored once.
// The example runs an embedded server; an application connects to its own.
func ExampleNew() {
	dir, err := os.MkdirTemp("", "natsaudit-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		panic(err)
	}
	ns.Start()
	defer ns.Shutdown()
	if !ns.ReadyForConnections(10 * time.Second) {
		panic("the NATS server did not start")
	}
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		panic(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	stream, err := js.CreateOrUpdateStream(ctx, natsaudit.StreamConfig("AUDIT"))
	if err != nil {
		panic(err)
	}

	sink := natsaudit.New(js, natsaudit.Options{Stream: "AUDIT"})
	entry := agent.AuditEntry{
		At:         time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Invocation: "inv-1",
		Transport:  "mcp",
		Capability: "create_todo",
		Tag:        "CreateTodo",
		Decision:   agent.DecisionDispatched,
		Outcome:    "dispatched",
	}
	fmt.Println("first:", sink.Record(entry))
	fmt.Println("again:", sink.Record(entry)) // the same invocation id: stored once

	info, err := stream.Info(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println("stored:", info.State.Msgs)
	m, err := stream.GetMsg(ctx, info.State.FirstSeq)
	if err != nil {
		panic(err)
	}
	var got agent.AuditEntry
	if err := json.Unmarshal(m.Data, &got); err != nil {
		panic(err)
	}
	fmt.Println(m.Subject, got.Invocation, got.Capability, got.Decision)
	// Output:
	// first: <nil>
	// again: <nil>
	// stored: 1
	// foldagent.audit inv-1 create_todo dispatched
}
