package nativeagent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/held"
)

// Defaults of the held calls (see Options): internal/held's, the same as
// mcpagent's.
const (
	// DefaultPatience is when a call still waiting (for the person's
	// approval, for a completion) answers its client as held: safely
	// before the 60 seconds common HTTP and agent clients wait.
	DefaultPatience = held.DefaultPatience
	// DefaultKeepOutcome is how long a held call's outcome is kept, from
	// the moment it ended, for its caller to read.
	DefaultKeepOutcome = held.DefaultKeepOutcome
	// DefaultMaxHeldPerIdentity bounds the held calls one identity has at
	// once, waiting or with an outcome not yet read.
	DefaultMaxHeldPerIdentity = held.DefaultMaxHeldPerIdentity
	// DefaultMaxHeld bounds the held calls of a Handler.
	DefaultMaxHeld = held.DefaultMaxHeld
)

// What a held call waits for, as its held answer says.
const (
	waitingApplication = "application" // not (or no longer) for the person
	waitingPerson      = "person"      // the person has not answered
)

// heldCall is one call whose request outlived its client's patience: it
// goes on, on a context of its own, and its caller learns the outcome by
// sending the same request again or reading its status URL. The book's
// mechanism (ids, bounds, keeping, rejoining) is internal/held's.
type heldCall struct {
	held.Call

	// Guarded by the book's lock (heldBook.Do).
	waiting string
	reply   agent.Reply
}

// heldBook keeps a Handler's held calls (internal/held's book), bounded
// per identity and in all; an outcome is kept for KeepOutcome after its
// call ended, then forgotten.
type heldBook struct {
	*held.Book[*heldCall]
}

func newHeldBook(o Options) heldBook {
	return heldBook{held.NewBook[*heldCall](held.Options{KeepOutcome: o.KeepOutcome, MaxHeldPerIdentity: o.MaxHeldPerIdentity, MaxHeld: o.MaxHeld})}
}

// newHeldCall makes the entry of a call about to be held: not in the book
// until Admit.
func (b heldBook) newHeldCall(owner, action, args string) *heldCall {
	return &heldCall{Call: b.NewCall(owner, action, args, true), waiting: waitingApplication}
}

// deliver marks c's outcome answered to a request sent again: the same
// request is a new call from now on. The outcome stays readable at the
// status URL until it expires, so a client that left before the answer
// reached it loses nothing.
func (b heldBook) deliver(c *heldCall) { b.Delivered(c) }

func (b heldBook) setWaiting(c *heldCall, w string) {
	b.Do(func() {
		if c.Ended().IsZero() {
			c.waiting = w
		}
	})
}

func (b heldBook) finish(c *heldCall, r agent.Reply) {
	b.Finish(c, func() { c.reply, c.waiting = r, waitingApplication })
}

// view returns what c waits for and its outcome.
func (b heldBook) view(c *heldCall) (waiting string, r agent.Reply) {
	b.Do(func() { waiting, r = c.waiting, c.reply })
	return waiting, r
}

// canonical returns a JSON body in one spelling (keys sorted, no
// insignificant space), so that the same request sent again is found
// whatever its formatting; a body that is not JSON stays as it is.
func canonical(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return string(body)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(body)
	}
	return string(b)
}

// The held answer's sentences.
const (
	heldForPerson = "Held: nothing has been done yet; the person has not answered in the app. " +
		"Send this same request again, or read the status URL, to learn the outcome: the person's answer runs this call once, " +
		"and sending it again joins it instead of starting another."
	heldForApplication = "Held: the application has not finished this call yet. " +
		"Send this same request again, or read the status URL, to learn the outcome; sending it again joins this call instead of starting another."
)

// heldData is the data of a held answer.
type heldData struct {
	Tag         string `json:"_tag"`
	Capability  string `json:"capability"`
	Message     string `json:"message"`
	Request     string `json:"request"`
	WaitingFor  string `json:"waitingFor"`
	NothingDone bool   `json:"nothingDone"`
	StatusURL   string `json:"statusUrl"`
	KeepSeconds int64  `json:"keepSeconds"`
}

// heldResult is the held answer to c's caller: nothing is reported done,
// the call goes on, and the data say how to learn its outcome.
func (h *Handler) heldResult(c *heldCall) (Result, string) {
	waiting, _ := h.held.view(c)
	text := heldForApplication
	if waiting == waitingPerson {
		text = heldForPerson
	}
	url := h.prefix + "/calls/" + c.ID
	data, _ := json.Marshal(heldData{Tag: agent.TagHeld, Capability: c.Name, Message: text, Request: c.ID,
		WaitingFor: waiting, NothingDone: waiting == waitingPerson, StatusURL: url, KeepSeconds: int64(h.held.Keep() / time.Second)})
	return Result{Refusal: agent.TagHeld, Message: text, Error: text, Data: data}, url
}

// watch returns ctx telling c what its call waits for.
func (h *Handler) watch(ctx context.Context, c *heldCall) context.Context {
	ctx = agent.WhileAwaitingApproval(ctx, func(agent.ApprovalRequest) { h.held.setWaiting(c, waitingPerson) })
	return agent.WhenApprovalEnds(ctx, func(agent.ApprovalRequest, agent.Withdrawal) { h.held.setWaiting(c, waitingApplication) })
}
