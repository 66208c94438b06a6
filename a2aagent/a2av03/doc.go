// Package a2av03 serves an a2aagent.Handler's agent to A2A 0.3 callers
// (JSON-RPC method/send, tasks/get, tasks/cancel, message/stream,
// tasks/resubscribe, with "kind" on parts and lower-case states), through
// a2a-go's 0.3 compatibility layer. It is a separate package because that
// layer brings in gRPC and protobuf: only an application that imports this
// package pays for them.
//
// The 0.3 endpoint is the same agent, not a second one: the same
// executor, task store, runtimes, owners and checks (Host, Origin, body
// bound, bearer token) serve both versions, so a task created over 0.3 is
// visible over 1.0 to the same principal, and to no one else.
package a2av03
