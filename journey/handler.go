package journey

import (
	"context"
	"encoding/json"
	"fmt"
)

// Handler runs an action: what Registration.Handlers binds to an action
// id. ctx carries the transition id (TransitionIDFrom) so the handler can
// report its state change by name. A returned error is a refusal: the
// fire comes to rest badly. Any other return value is the fire's produced
// data. Handlers always run on their own goroutine, after Fire has
// returned, so a fire's synchronous result is never "performed".
//
// Write a handler with Typed, over the Go types of its input and of what
// it produces. The signature below is the untyped form Typed makes, over
// the decoded JSON value (nil, a bool, a float64, a string, []any or
// map[string]any); a function of that signature is a Handler as it is,
// for code that only passes the input on.
type Handler func(ctx context.Context, input any) (any, error)

// Typed makes a Handler from a function over Go types, and is the usual
// way to write one: the fire's input (a JSON value the action's input
// contract has already checked) is decoded into In, and what the function
// returns is the fire's produced data. An input that does not decode into
// In is the handler's failure (HANDLER_FAILED): the fire comes to rest
// refused and f is not called. Use struct{} for an action without input,
// and any for Out when it produces nothing worth keeping.
func Typed[In, Out any](f func(ctx context.Context, in In) (Out, error)) Handler {
	return func(ctx context.Context, input any) (any, error) {
		var in In
		if input != nil {
			raw, err := json.Marshal(input)
			if err != nil {
				return nil, fmt.Errorf("journey: the input is not JSON: %w", err)
			}
			if err := json.Unmarshal(raw, &in); err != nil {
				return nil, fmt.Errorf("journey: the input does not fit %T: %w", in, err)
			}
		}
		out, err := f(ctx, in)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}
