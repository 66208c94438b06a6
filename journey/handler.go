package journey

import (
	"context"
	"encoding/json"
	"fmt"
)

// Typed makes a Handler from a function over Go types: the fire's input
// (a JSON value the action's input contract has already checked) is
// decoded into In, and what the function returns is the fire's produced
// data. An input that does not decode into In is the handler's failure
// (HANDLER_FAILED): the fire comes to rest refused and f is not called.
// Use struct{} for an action without input, and any for Out when it
// produces nothing worth keeping.
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
