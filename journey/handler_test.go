package journey

import (
	"context"
	"errors"
	"testing"
)

// TestTypedHandler: the input decodes into the function's type and its
// result is the fire's produced data; an input that does not fit is the
// handler's failure and the function is not called.
func TestTypedHandler(t *testing.T) {
	type search struct {
		Q     string `json:"q"`
		Limit int    `json:"limit"`
	}
	called := 0
	h := Typed(func(_ context.Context, in search) (map[string]any, error) {
		called++
		return map[string]any{"q": in.Q, "n": in.Limit}, nil
	})
	for _, c := range []struct {
		name   string
		input  any
		want   map[string]any
		failed bool
	}{
		{name: "fits", input: map[string]any{"q": "dress", "limit": 3.0}, want: map[string]any{"q": "dress", "n": 3}},
		{name: "no input", input: nil, want: map[string]any{"q": "", "n": 0}},
		{name: "does not fit", input: map[string]any{"q": 42.0}, failed: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := called
			out, err := h(context.Background(), c.input)
			if c.failed {
				if err == nil || called != before {
					t.Fatalf("want a failure without a call: %v, %d calls", err, called-before)
				}
				return
			}
			m, _ := out.(map[string]any)
			if err != nil || m["q"] != c.want["q"] || m["n"] != c.want["n"] {
				t.Fatalf("%v, %v", out, err)
			}
		})
	}
	boom := errors.New("no")
	if _, err := Typed(func(context.Context, struct{}) (any, error) { return "x", boom })(context.Background(), nil); !errors.Is(err, boom) {
		t.Fatalf("the function's error is the handler's: %v", err)
	}
}
