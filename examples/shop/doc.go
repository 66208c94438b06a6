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
// either tool set; the fixed tools are at /mcp and the dynamic tools at
// /mcp/dynamic. Over HTTP every request must carry the bearer token the
// shop prints (TOKEN, or the one given with -token); other browser origins
// and DNS-rebinding requests are refused. Every call goes through the
// contract, so the audit log (-audit file.jsonl) records both alike.
//
// Placing an order is asynchronous: the call completes when the payment
// server answers, paid or refused (it refuses gift cards). With the
// fixed tools placing an order is high-effect (needs-confirm first) and
// comes back pending, settled later through did_it_work.
package main
