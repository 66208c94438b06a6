package nativeagent

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// call runs an action for a request. A capability whose calls never wait
// runs on the request, as it always did. One that may wait (for the
// person's approval, for a completion) runs on a context of its own: an
// answer before Patience is the call's own, and a client that leaves
// before then withdraws the call; at Patience the call is held (it goes
// on, and the client is answered 202 with where to learn the outcome),
// never answered with a timeout. The same caller sending the same request
// again joins a held call instead of starting another.
func (h *Handler) call(w http.ResponseWriter, r *http.Request, e *entry, name string, body []byte, seen uint64) {
	inv := agent.Invocation{Transport: Transport, SeenVersion: seen}
	ctx := withCaller(r.Context(), e)
	if h.patience < 0 || !e.mayWait(name) {
		res, err := e.rt.DispatchUnknown(ctx, name, body, inv)
		h.reply(w, name, agent.ReplyTo(name, res, err))
		return
	}
	args := canonical(body)
	if c := h.held.Rejoin(e.key, name, args); c != nil {
		h.awaitHeld(w, r, c, false)
		return
	}
	c := h.held.newHeldCall(e.key, name, args)
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	h.runtimes.hold(e) // a runtime with a call on it is never dropped
	go func() {
		defer h.runtimes.release(e)
		defer cancel()
		res, err := e.rt.DispatchUnknown(h.watch(work, c), name, body, inv)
		h.held.finish(c, agent.ReplyTo(name, res, err))
	}()
	patience, stop := h.patienceTimer()
	defer stop()
	for {
		select {
		case <-c.Done:
			h.outcome(w, c, false)
			return
		case <-r.Context().Done():
			cancel() // withdrawn: nothing was answered as held
			<-c.Done
			h.outcome(w, c, false)
			return
		case <-patience:
			if ended(c) {
				h.outcome(w, c, false)
				return
			}
			if h.held.Admit(c) != nil {
				patience = nil // no room to hold it: wait on, as without a Patience
				continue
			}
			h.answerHeld(w, c)
			return
		}
	}
}

func ended(c *heldCall) bool {
	select {
	case <-c.Done:
		return true
	default:
		return false
	}
}

// awaitHeld answers a caller who sent a held call's request again (read
// true: from the status URL): its outcome once it has one, or the held
// answer again at Patience. A request that gives up leaves the call held.
// An outcome answered to the request sent again ends the rejoining: the
// same request after it is a new call.
func (h *Handler) awaitHeld(w http.ResponseWriter, r *http.Request, c *heldCall, status bool) {
	patience, stop := h.patienceTimer()
	defer stop()
	select {
	case <-c.Done:
		h.outcome(w, c, !status)
	case <-r.Context().Done():
	case <-patience:
		if ended(c) {
			h.outcome(w, c, !status)
			return
		}
		h.answerHeld(w, c)
	}
}

// serveStatus answers GET <prefix>/calls/<id> as sending the same
// request again does: with the held call's outcome once it has one (as
// often as asked, until it expires), or its held answer again at
// Patience. Another identity's
// call is not found, as one that never was.
func (h *Handler) serveStatus(w http.ResponseWriter, r *http.Request, e *entry, id string) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, http.StatusMethodNotAllowed, "A held call's status is read with GET.")
		return
	}
	c := h.held.Find(e.key, id)
	if c == nil {
		writeError(w, http.StatusNotFound, "There is no held call with this id for this caller; its outcome may have been read already, or kept past its time.")
		return
	}
	h.awaitHeld(w, r, c, true)
}

// outcome answers with what c ended with; deliver marks it answered to
// a request sent again.
func (h *Handler) outcome(w http.ResponseWriter, c *heldCall, deliver bool) {
	_, rep := h.held.view(c)
	if deliver {
		h.held.deliver(c)
	}
	h.reply(w, c.Name, rep)
}

// answerHeld answers 202 Accepted with the held answer; Location is the
// status URL.
func (h *Handler) answerHeld(w http.ResponseWriter, c *heldCall) {
	res, url := h.heldResult(c)
	w.Header().Set("Location", url)
	writeResult(w, http.StatusAccepted, res)
}

// patienceTimer is the channel a wait's patience ends on.
func (h *Handler) patienceTimer() (<-chan time.Time, func()) {
	if h.opts.patienceTick != nil {
		return h.opts.patienceTick, func() {}
	}
	t := time.NewTimer(h.patience)
	return t.C, func() { t.Stop() }
}

// mayWait reports whether a call of the named capability may wait for
// the person or a completion, from the runtime's contract (read once).
func (e *entry) mayWait(name string) bool {
	e.waitOnce.Do(func() {
		e.waits = map[string]bool{}
		for _, d := range e.rt.Describe().Capabilities {
			e.waits[d.Name] = d.NeedsApproval || d.Completion != nil
		}
	})
	return e.waits[name]
}

// statusID returns the id of a status path (calls/<id>), if path is one.
func statusID(path string) (string, bool) {
	id, ok := strings.CutPrefix(path, "calls/")
	return id, ok && id != "" && !strings.Contains(id, "/")
}
