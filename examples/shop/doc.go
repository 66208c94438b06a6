// Command shop serves a small store to an AI agent over MCP, as a journey
// port: fixed tools (a journey tool per flow, whats_here, why, do_action,
// did_it_work) whose bytes never change while the results say what can be
// done now.
//
//	go run ./examples/shop -mcp stdio                        # for a desktop MCP host
//	go run ./examples/shop -mcp http -addr 127.0.0.1:8080    # streamable HTTP
//
// Placing an order is high-effect: the first call answers needs-confirm
// with receipts for the human, and only a call with confirm: true fires
// it. The payment then runs on the store's side and settles later (paid,
// or refused by the payment server for a gift card), so the order comes
// back pending and did_it_work tells how it came to rest.
package main
