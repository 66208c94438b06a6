// Command contract shows a foldagent contract at work without any
// protocol in between: it binds a small todo contract to an in-memory
// host, dispatches a capability, walks through every kind of refusal, and
// prints the manifest an application would commit as agent.json.
//
//	go run ./examples/contract
package main
