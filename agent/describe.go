package agent

import "encoding/json"

// Resources returns the bound contract's resources in declaration order.
// With ContextSchema it lets an adapter describe what an agent may read
// without naming the contract's type parameters.
func (r *Runtime[Model, Msg, P]) Resources() []ResourceDescriptor { return r.contract.Resources() }

// ContextSchema returns the JSON Schema of the context projection, or nil
// when the contract projects no context.
func (r *Runtime[Model, Msg, P]) ContextSchema() json.RawMessage { return r.contract.ContextSchema() }
