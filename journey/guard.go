package journey

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Op is a guard operator.
type Op string

// The guard operators. Several conditions on one key are ANDed.
const (
	OpEq    Op = "eq"
	OpNe    Op = "ne"
	OpGt    Op = "gt"
	OpGte   Op = "gte"
	OpLt    Op = "lt"
	OpLte   Op = "lte"
	OpIn    Op = "in"
	OpNotIn Op = "notIn"
)

var knownOps = []Op{OpEq, OpNe, OpGt, OpGte, OpLt, OpLte, OpIn, OpNotIn}

// Cond is one condition of a guard: state[Key] Op Value.
type Cond struct {
	Key   string
	Op    Op
	Value any
}

// Guard is a conjunction of conditions over the state view. A nil Guard
// means "no guard". A non-nil empty Guard is refused at construction: a
// filter with no conditions never matches in the evaluator this design
// learns from, so declaring one is always a mistake.
type Guard []Cond

// Eq is the condition state[key] == v.
func Eq(key string, v any) Cond { return Cond{key, OpEq, v} }

// Ne is the condition state[key] != v.
func Ne(key string, v any) Cond { return Cond{key, OpNe, v} }

// Gt is the condition state[key] > v (numbers, or strings lexically).
func Gt(key string, v any) Cond { return Cond{key, OpGt, v} }

// Gte is the condition state[key] >= v.
func Gte(key string, v any) Cond { return Cond{key, OpGte, v} }

// Lt is the condition state[key] < v.
func Lt(key string, v any) Cond { return Cond{key, OpLt, v} }

// Lte is the condition state[key] <= v.
func Lte(key string, v any) Cond { return Cond{key, OpLte, v} }

// In is the condition "state[key] is one of vs"; vs must be a slice.
func In(key string, vs any) Cond { return Cond{key, OpIn, vs} }

// NotIn is the condition "state[key] is none of vs"; vs must be a slice.
func NotIn(key string, vs any) Cond { return Cond{key, OpNotIn, vs} }

// Condition is one evaluated guard condition: the evidence row a refusal
// or a receipt carries. ActualSummary is a short JSON rendering of the
// state value; it is runtime data and never enters authored text.
type Condition struct {
	Key           string `json:"key"`
	Op            Op     `json:"op"`
	Threshold     any    `json:"threshold"`
	ActualSummary string `json:"actualSummary"`
	Result        bool   `json:"result"`
	Redacted      bool   `json:"redacted"`
}

// StateView is a read-only view of the session's state, handed to
// Instances and VerifyFunc callbacks.
type StateView struct{ m map[string]any }

// Get returns the value of a key and whether the key is present.
func (v StateView) Get(key string) (any, bool) { x, ok := v.m[key]; return x, ok }

// Keys lists the present keys, sorted.
func (v StateView) Keys() []string {
	ks := make([]string, 0, len(v.m))
	for k := range v.m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// compileGuard validates a guard and returns a copy whose thresholds are
// normalized to JSON values (numbers become float64), the same shape the
// state view holds, so comparisons never depend on a Go type.
func compileGuard(g Guard, where string) (Guard, error) {
	if g == nil {
		return nil, nil
	}
	if len(g) == 0 {
		return nil, fmt.Errorf("%s is an empty guard: it can never match; omit it instead", where)
	}
	out := make(Guard, len(g))
	for i, c := range g {
		if strings.TrimSpace(c.Key) == "" {
			return nil, fmt.Errorf("%s: condition %d has an empty key", where, i)
		}
		if c.Op == "" {
			return nil, fmt.Errorf("%s: condition on %q has no operator", where, c.Key)
		}
		if !slices.Contains(knownOps, c.Op) {
			return nil, fmt.Errorf("%s: condition on %q uses unknown operator %q (known: eq ne gt gte lt lte in notIn)", where, c.Key, c.Op)
		}
		v, err := normalize(c.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: condition on %q has a value that is not JSON: %v", where, c.Key, err)
		}
		if c.Op == OpIn || c.Op == OpNotIn {
			if _, ok := v.([]any); !ok {
				return nil, fmt.Errorf("%s: %s on %q needs a list of values", where, c.Op, c.Key)
			}
		}
		out[i] = Cond{Key: c.Key, Op: c.Op, Value: v}
	}
	return out, nil
}

// normalize turns a Go value into its JSON-decoded form (a detached copy).
func normalize(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, float64:
		return x, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// guardKeys lists the distinct keys of a guard in order.
func guardKeys(g Guard) []string {
	var ks []string
	for _, c := range g {
		if !slices.Contains(ks, c.Key) {
			ks = append(ks, c.Key)
		}
	}
	return ks
}

// evalQuick evaluates a guard without building evidence. A key absent from
// the state is unevaluable: it is dropped and reported, never read as
// false. A guard whose every key is unevaluable counts as matched.
func evalQuick(g Guard, state map[string]any) (pass bool, unevaluated []string) {
	pass = true
	for _, c := range g {
		actual, ok := state[c.Key]
		if !ok {
			if !slices.Contains(unevaluated, c.Key) {
				unevaluated = append(unevaluated, c.Key)
			}
			continue
		}
		if !test(c, actual) {
			pass = false
		}
	}
	return pass, unevaluated
}

// evalFull evaluates a guard and returns the evidence rows of every
// evaluable condition, in declaration order.
func evalFull(g Guard, state map[string]any, redacted map[string]bool) (pass bool, evidence []Condition, unevaluated []string) {
	pass = true
	for _, c := range g {
		actual, ok := state[c.Key]
		if !ok {
			if !slices.Contains(unevaluated, c.Key) {
				unevaluated = append(unevaluated, c.Key)
			}
			continue
		}
		r := test(c, actual)
		if !r {
			pass = false
		}
		row := Condition{Key: c.Key, Op: c.Op, Threshold: c.Value, Result: r}
		if redacted[c.Key] {
			row.Redacted = true
			row.ActualSummary = "(redacted)"
		} else {
			row.ActualSummary = summarize(actual)
		}
		evidence = append(evidence, row)
	}
	return pass, evidence, unevaluated
}

// failingKeys lists the keys of evaluable conditions that fail.
func failingKeys(g Guard, state map[string]any) []string {
	var ks []string
	for _, c := range g {
		if actual, ok := state[c.Key]; ok && !test(c, actual) && !slices.Contains(ks, c.Key) {
			ks = append(ks, c.Key)
		}
	}
	return ks
}

const summaryCap = 80

func summarize(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "(unrenderable)"
	}
	s := string(b)
	if len(s) > summaryCap {
		cut := summaryCap
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func test(c Cond, actual any) bool {
	switch c.Op {
	case OpEq:
		return jsonEqual(actual, c.Value)
	case OpNe:
		return !jsonEqual(actual, c.Value)
	case OpIn, OpNotIn:
		found := false
		for _, x := range c.Value.([]any) {
			if jsonEqual(actual, x) {
				found = true
				break
			}
		}
		return found == (c.Op == OpIn)
	default:
		cmp, ok := compare(actual, c.Value)
		if !ok {
			return false
		}
		switch c.Op {
		case OpGt:
			return cmp > 0
		case OpGte:
			return cmp >= 0
		case OpLt:
			return cmp < 0
		case OpLte:
			return cmp <= 0
		}
	}
	return false
}

func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return reflect.DeepEqual(a, b)
}

func compare(a, b any) (int, bool) {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		if !ok {
			return 0, false
		}
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	case string:
		y, ok := b.(string)
		if !ok {
			return 0, false
		}
		return strings.Compare(x, y), true
	}
	return 0, false
}
