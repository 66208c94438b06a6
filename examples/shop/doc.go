// Command shop is a small store written once, as an Elm-architecture
// application (Bubble Tea on host/teahost), with one agent contract
// (shop.Contract) and one journey declared over it (shop.Journey). The
// same contract is served over MCP in either shape:
//
//	go run ./examples/shop -mcp stdio                  # fixed journey tools (the default)
//	go run ./examples/shop -mcp stdio -tools dynamic   # one tool per capability
//	go run ./examples/shop -mcp http -addr 127.0.0.1:8080
//	go run ./examples/shop                             # the TUI; both over HTTP beside it
//
// The TUI shows the store and an activity panel with every agent call, from
// either tool set, naming each agent (agent 1, agent 2, … in the order they
// first acted) and the reason for every refusal, the journey tools' own
// included; ↑/↓ scroll it back through its last 500 lines, end follows the
// newest. The fixed tools are at /mcp and the dynamic tools at
// /mcp/dynamic. Over HTTP every request must carry the bearer token the
// shop prints (TOKEN, or the one given with -token); other browser origins
// and DNS-rebinding requests are refused. Every call goes through the
// contract, so the audit log (-audit file.jsonl) records both alike.
//
// Checkout is a real store's. Going to checkout makes the order. The
// delivery address is the person's decision: no agent tool changes it;
// the person gives it in the TUI (a, the address, enter), and the fixed
// tools serve it as awaiting the person and refuse an agent's attempt
// (PRINCIPAL_NOT_ALLOWED). The payment sits in the order review, a modal
// the agent or the person opens (open-review, or r; x closes it): while it
// is closed, pay is not clickable (NODE_NOT_VISIBLE). Paying is
// asynchronous: the call completes when the payment server answers, paid
// or refused (it refuses gift cards). With the fixed tools it is
// high-effect and approved by the person on their screen (the contract's
// Approval, served as personApproves): that is the one question, so the
// step fires without needs-confirm, comes back pending, settles later
// through did_it_work, and happens once per order: paying a paid order
// again is refused DUPLICATE_EXECUTION, naming the payment that settled.
//
// A payment waits for the person's approval on the library's card, drawn
// by host/teahost over the store (Options.Approvals) with the order, its
// total and address as the approval covers them; y and n count once the
// card has stood unchanged for a second, and agent and Model text on
// screen is drawn through host/inert.
// With the dynamic tools, every call's result says what it changed of
// the view (agent.Change): a search's results, the cart add_to_cart made,
// the order checkout opened, with no read of the context after the call.
// Every capability is listed once, whatever the page
// (mcpagent.Options.ListAll): what the page does not offer is refused
// with the reason, so a model lists the tools once, not after each call.
// A payment waits for the person; the token's clients, one identity
// however many sessions they open, hold at most sixteen such payments at
// once (agent.DefaultMaxHeldPerIdentity). With the dynamic tools, a client that
// asked for no task is answered before its patience runs out (-patience,
// 50 s by default, under the TypeScript client's 60 s): held, nothing
// done yet; the person's later answer pays once, and the same call again
// learns the outcome. A client that speaks tasks gets one: over stdio and
// on a 2025-11-25 session a task-augmented tools/call; with -sessionless
// (headless HTTP, dynamic tools) the endpoint is mcpagent.Handler, which
// also serves the sessionless 2026-07-28 revision and its tasks
// extension.
//
// Headless, -keys names a file or named pipe the shop reads key presses
// from, as if typed into the TUI: a script (a test) acts as the person.
//
// With -devtools (off by default) the store records its history with
// package devtools (devtools.go: teadevtools.Attach on the host; each
// agent's Messages named as the panel names it, agent 1, agent 2,
// through devtools.Options.NameAgent; the panel's reports the app's own),
// serves it on loopback behind a random token and publishes it in the
// per-user registry ($FOLDAGENT_DEVTOOLS_DIR when set), where
// cmd/foldagent-devtools started in the shop's directory or above finds
// it. -devtools-dispatch enables the developer's dispatch.
package main
