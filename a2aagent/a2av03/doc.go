// Package a2av03 serves an a2aagent.Handler's agent to A2A 0.3 callers:
// the 0.3 JSON-RPC methods message/send, message/stream (server-sent
// events), tasks/get, tasks/cancel and tasks/resubscribe, with "kind" on
// messages, tasks, events and parts and lower-case task states, and the
// agent card in its 0.3 form (url, preferredTransport, protocolVersion).
// Advertise puts the 0.3 endpoint on the 1.0 card as one more interface.
//
// The 0.3 endpoint is the same agent, not a second one: the same SDK
// request handler, executor, task store, runtimes, owners and checks
// (Host, Origin, body bound, bearer token) serve both versions, so a task
// created over 0.3 is visible over 1.0 to the same principal, and to no
// one else.
//
// # Why the binding is written here
//
// This package translates the 0.3 wire shapes itself, over the SDK's
// version-neutral request handler, instead of using a library binding.
// The one well-kept Go library for A2A, a2a-go, serves 0.3 only through
// its compatibility layer (a2a-go/v2's a2acompat/a2av0), and that layer
// imports the 0.3 module's client, which links gRPC and protobuf: about
// 150 more packages to build, a binary 11 MB larger, and a first build of
// an application several times slower. No released a2a-go package serves
// the 0.3 JSON-RPC binding without them. The translation is small (the
// shapes in wire.go, the methods in a2av03.go), and it is tested against
// the shapes 0.3 clients send and read, and against the Agent Native
// framework's own 0.3 client (nativeagent's interoperability test). When
// a2a-go ships a 0.3 binding free of gRPC, this package can serve through
// it again without changing its API.
package a2av03
