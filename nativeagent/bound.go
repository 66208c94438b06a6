package nativeagent

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/bound"
)

// retryLater sets the Retry-After header of an answer to a call refused
// by a bound (*agent.RetryLaterError).
func retryLater(w http.ResponseWriter, err error) {
	r := bound.Refusal{RetryAfter: bound.DefaultRetryAfter}
	var busy *agent.RetryLaterError
	if errors.As(err, &busy) {
		r.RetryAfter = busy.RetryAfter
	}
	r.SetHeaders(w.Header())
}

// refuse answers a request beyond one of the Handler's own bounds
// (runtimes kept, calls held): 429 with Retry-After, the refusal tagged
// agent.TagRetryLater as the runtime's own bound refusals are, and the
// bound, its limit and the retry hint as data. Nothing was done.
func (h *Handler) refuse(w http.ResponseWriter, r *bound.Refusal, sentence string) {
	data, _ := json.Marshal(r.Data()) // strings and numbers only
	r.SetHeaders(w.Header())
	writeResult(w, bound.StatusCode, Result{Refusal: agent.TagRetryLater, Message: sentence, Error: sentence, Data: data})
}
