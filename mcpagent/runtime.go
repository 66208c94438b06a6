package mcpagent

import "github.com/foldagent/foldagent/agent"

// Runtime is what the adapter needs from a bound contract: agent.Served,
// the one non-generic face of *agent.Runtime every adapter takes. An
// application passes its runtime as is, or a wrapper embedding one, so
// the adapter itself is not generic. A Server reads Describe once, when
// it is built.
//
// The adapter holds no authority of its own. Every tool call goes through
// DispatchUnknown, which runs the contract's checked path (availability,
// input schema, principal, authorization) exactly as an in-process call
// would.
type Runtime = agent.Served
