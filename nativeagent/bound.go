package nativeagent

import (
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
