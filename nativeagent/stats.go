package nativeagent

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Stats is what a Handler holds and what it failed to deliver, for a
// health read or a status line.
type Stats struct {
	// Runtimes is how many principals' runtimes are kept (MaxRuntimes
	// bounds it).
	Runtimes int
	// Held is how many calls are held past their client's patience, or
	// keep an outcome not yet read (MaxHeld bounds it).
	Held int
	// AnswersLost counts the answers to calls that ran whose response
	// could not be written: the client had gone, or its connection
	// broke. The call's effect stands; its caller did not hear of it.
	// Each is also logged at Warn.
	AnswersLost uint64
	// LastError is the last loss and LastAt when it was; nil and zero
	// when there was none.
	LastError error
	LastAt    time.Time
}

// Stats returns what the Handler holds and has failed to deliver so far.
func (h *Handler) Stats() Stats {
	s := h.losses.read()
	s.Runtimes = h.runtimes.len()
	s.Held = h.held.Count()
	return s
}

// losses counts the answers a Handler could not deliver.
type losses struct {
	answers atomic.Uint64
	mu      sync.Mutex
	last    error
	at      time.Time
}

func (l *losses) read() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Stats{AnswersLost: l.answers.Load(), LastError: l.last, LastAt: l.at}
}

// deliver writes the answer to a call that ran, counting and logging an
// answer that did not reach the client.
func (h *Handler) deliver(w http.ResponseWriter, action string, body []byte) {
	if _, err := w.Write(body); err != nil {
		h.losses.answers.Add(1)
		h.losses.mu.Lock()
		h.losses.last, h.losses.at = fmt.Errorf("nativeagent: the answer to a %s call was not delivered: %w", action, err), time.Now()
		h.losses.mu.Unlock()
		h.log.Warn("nativeagent: the answer to a call that ran was not delivered", "action", action, "err", err)
	}
}
