package devtools

import (
	"context"
	"encoding/json"
	"fmt"
)

// MaxBatch is how many Messages one dispatch may send.
const MaxBatch = 100

// DispatchDisabledError refuses a dispatch while the application has not
// enabled it (Options.Dispatch, EnableDispatch).
type DispatchDisabledError struct{}

func (*DispatchDisabledError) Error() string {
	return "devtools: dispatch is off; the application enables it with Options.Dispatch or EnableDispatch"
}

// Tag is the error's stable name.
func (*DispatchDisabledError) Tag() string { return "DevtoolsDispatchDisabled" }

// Problem is one Message of a batch that cannot be sent.
type Problem struct {
	Index  int    `json:"index"`
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

// BatchError refuses a whole batch: nothing was sent.
type BatchError struct {
	Problems []Problem `json:"problems"`
	Reason   string    `json:"reason,omitempty"`
}

func (e *BatchError) Error() string {
	if e.Reason != "" {
		return "devtools: batch refused, nothing sent: " + e.Reason
	}
	return fmt.Sprintf("devtools: batch refused, nothing sent: %d of its Messages cannot be sent", len(e.Problems))
}

// Tag is the error's stable name.
func (*BatchError) Tag() string { return "DevtoolsBatchRefused" }

// Outgoing is one Message to dispatch: its type name (as the types tool
// lists it) and the Message as JSON.
type Outgoing struct {
	Type string `json:"type"`
	// Message is the Message's JSON: a json.RawMessage, or any value that
	// encodes as it.
	Message any `json:"message,omitempty"`
}

// Dispatch validates every Message of batch, and only when all are valid
// dispatches them in order, each recorded with the developer's
// provenance. It returns how many were sent: all, or none with a
// *BatchError (or a *DispatchDisabledError while dispatch is off). A host
// that refuses one (stopped, queue full) ends the batch there, and the
// count says how many went.
func (d *Devtools[Model, Msg]) Dispatch(ctx context.Context, who string, batch []Outgoing) (int, error) {
	if !d.dispatchOn.Load() {
		return 0, &DispatchDisabledError{}
	}
	if len(batch) == 0 || len(batch) > MaxBatch {
		return 0, &BatchError{Reason: fmt.Sprintf("a batch holds 1 to %d Messages", MaxBatch)}
	}
	msgs := make([]Msg, 0, len(batch))
	var problems []Problem
	for i, o := range batch {
		raw, err := json.Marshal(o.Message)
		if err != nil {
			problems = append(problems, Problem{Index: i, Type: o.Type, Reason: "the message does not encode as JSON"})
			continue
		}
		if o.Message == nil {
			raw = nil
		}
		v, reason := d.types.decode(o.Type, raw)
		if reason != "" {
			problems = append(problems, Problem{Index: i, Type: o.Type, Reason: reason})
			continue
		}
		m, _ := v.(Msg) // the registry holds only types that are Msgs
		msgs = append(msgs, m)
	}
	if len(problems) > 0 {
		return 0, &BatchError{Problems: problems}
	}
	ctx = withDeveloper(ctx, who)
	for i, m := range msgs {
		if err := d.host.Dispatch(ctx, m); err != nil {
			return i, err
		}
	}
	return len(msgs), nil
}
