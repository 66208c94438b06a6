package mcpagent

import (
	"context"
	"encoding/json"

	"github.com/foldagent/foldagent/agent"
)

// Runtime is what the adapter needs from a bound contract. It is the
// non-generic face of *agent.Runtime, which satisfies it whatever its
// Model, Message and principal types, so the adapter itself is not
// generic: an application passes its runtime as is.
//
// The adapter holds no authority of its own. Every tool call goes through
// DispatchUnknown, which runs the contract's checked path (availability,
// input schema, principal, authorization) exactly as an in-process call
// would.
type Runtime interface {
	// Describe returns the whole contract as data, whatever the Model. A
	// Server reads it once, when it is built.
	Describe() agent.Description
	// Available returns the descriptors the current Model offers.
	Available() ([]agent.Descriptor, error)
	// DispatchUnknown invokes a capability with a raw JSON payload.
	DispatchUnknown(ctx context.Context, name string, payload json.RawMessage, inv agent.Invocation) (agent.Result, error)
	// Subscribe registers a listener for Model changes.
	Subscribe(listener func()) (unsubscribe func())
	// CanSubscribe reports whether Subscribe will ever call its listener.
	CanSubscribe() bool
	// Context reads the context projection (nil when there is none).
	Context(ctx context.Context) (json.RawMessage, error)
	// ReadResource reads a declared resource by name.
	ReadResource(ctx context.Context, name string) (json.RawMessage, error)
}
