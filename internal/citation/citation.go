// Package citation reads the version a caller cites (agent.Invocation's
// SeenVersion) from a JSON-decoded metadata value, as the MCP and A2A
// adapters both receive it: a JSON number, decoded as float64 or
// json.Number, or an integer a Go client put there itself.
package citation

import (
	"encoding/json"
	"math"
)

// Version reads v as a version: a positive whole number no larger than a
// float64 holds exactly (2^53). It reports false for anything else (zero,
// a fraction, a string, a number out of range), which the adapter answers
// as the caller's mistake.
func Version(v any) (uint64, bool) {
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case json.Number:
		n, err := v.Float64()
		if err != nil {
			return 0, false
		}
		f = n
	case int:
		f = float64(v)
	case int64:
		f = float64(v)
	case uint64:
		return v, v != 0
	default:
		return 0, false
	}
	if f < 1 || f != math.Trunc(f) || f > 1<<53 {
		return 0, false
	}
	return uint64(f), true
}
