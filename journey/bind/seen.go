package bind

import (
	"encoding/json"
	"errors"
	"sync"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/journey"
)

// This file makes the fixed route's cursor and the contract's stale view
// one rule. An agent on the fixed route sees the session (whats_here), and
// the session is a projection of the Model: each session version shows
// some Model version. A fire is judged by the session first (an
// expectedVersion that is not the session's version is STALE_CURSOR);
// when it runs, the binding cites the Model version the session showed
// when the fire was attempted, so the contract judges the capability's
// watches against exactly what the agent could have seen. The Model can
// move between the two (a person's edit the session has not yet
// followed); the contract's refusal then comes to rest STALE_CURSOR too,
// naming the watches that moved, so the agent has one answer to follow:
// look again, then act.

// versioner is the part of a Runtime snapshot reads.
type versioner interface{ Version() uint64 }

// seenMarks maps session versions to the Model versions they show. Each
// Model change the binding follows marks the session version it left the
// session at; a session version shows the Model version of the last mark
// at or below it. It keeps the most recent marks only: a fire is run
// moments after it is attempted.
type seenMarks struct {
	mu    sync.Mutex
	marks []seenMark
}

type seenMark struct {
	session int64
	model   uint64
}

// maxSeenMarks bounds the marks kept. A fire whose session version is
// older than every mark cites the oldest: an older version than it saw,
// which can only make its call more careful, never apply it to something
// it did not see.
const maxSeenMarks = 256

// mark records that session version session shows Model version model.
func (s *seenMarks) mark(session int64, model uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.marks); n > 0 && s.marks[n-1].session == session {
		// The Model moved and the session did not: nothing the agent is
		// shown changed, so this session version shows the newer Model.
		s.marks[n-1].model = model
		return
	}
	if len(s.marks) == maxSeenMarks {
		s.marks = append(s.marks[:0], s.marks[1:]...)
	}
	s.marks = append(s.marks, seenMark{session, model})
}

// at returns the Model version session version session shows, or 0 when
// nothing is marked (an unversioned host).
func (s *seenMarks) at(session int64) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.marks) - 1; i >= 0; i-- {
		if s.marks[i].session <= session {
			return s.marks[i].model
		}
	}
	if len(s.marks) > 0 {
		return s.marks[0].model
	}
	return 0
}

// snapshot reads the Model with the version it is at. The host publishes
// the two together, so a Model read between two equal version reads is
// that version's. When the Model keeps moving, the first version read is
// kept: older than the Model read, never newer. On an unversioned host
// the version is 0.
func snapshot[Model any](rt versioner, model func() Model) (Model, uint64) {
	var first uint64
	for i := range 4 {
		before := rt.Version()
		m := model()
		if rt.Version() == before {
			return m, before
		}
		if i == 0 {
			first = before
		}
	}
	return model(), first
}

// appFailed is what an agent is told when the application reported the
// action failed as it completed; the application's report rides as data.
const appFailed = "The app reported that this failed, so it is not done; its own report is in error.data. Tell the person rather than retrying."

// staleCursor is what an agent is told when the contract judged its fire
// stale: the same refusal, in the same words, as an expectedVersion that
// is not the session's.
const staleCursor = "The app's state moved since you last looked, so nothing was done. Look again with whats_here (its version is the current one) before you act."

// refusal is how a call the contract refused comes to rest: a reason code,
// the sentence the agent is told, and the refusal as data. A stale view
// is STALE_CURSOR, carrying the moved watches' names; a capability not offered is TOOL_DISABLED; an input that does
// not fit is PAYLOAD_INVALID; every other refusal is REJECTED.
func refusal(name string, res agent.Result, err error) *journey.SettleError {
	reply := agent.ReplyTo(name, res, err)
	var stale *agent.StaleViewError
	if errors.As(err, &stale) {
		// The Model's version is not the session's, and the session
		// moves again as this fire comes to rest: the answer carries the
		// session's version, as for any fire.
		data, _ := json.Marshal(struct {
			Tag   string   `json:"_tag"`
			Moved []string `json:"moved"`
		}{stale.Tag(), stale.Moved})
		return &journey.SettleError{Reason: journey.ReasonStaleCursor, Message: staleCursor, Data: data}
	}
	reason := journey.ReasonRejected
	var (
		unavailable *agent.UnavailableError
		invalid     *agent.InvalidInputError
	)
	switch {
	case errors.As(err, &unavailable):
		reason = journey.ReasonToolDisabled
	case errors.As(err, &invalid):
		reason = journey.ReasonPayloadInvalid
	case reply.Defect:
		reason = journey.ReasonHandlerFailed
	}
	data := reply.Data
	if !json.Valid(data) || len(data) == 0 || data[0] != '{' {
		data, _ = json.Marshal(map[string]string{"_tag": reply.Tag})
	}
	return &journey.SettleError{Reason: reason, Message: reply.Text, Data: data}
}
