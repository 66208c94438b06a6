package nativeagent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/bound"
)

// Defaults of the held calls (see Options), the same as mcpagent's.
const (
	// DefaultPatience is when a call still waiting (for the person's
	// approval, for a completion) answers its client as held: safely
	// before the 60 seconds common HTTP and agent clients wait.
	DefaultPatience = 50 * time.Second
	// DefaultKeepOutcome is how long a held call's outcome is kept, from
	// the moment it ended, for its caller to read.
	DefaultKeepOutcome = 15 * time.Minute
	// DefaultMaxHeldPerIdentity bounds the held calls one identity has at
	// once, waiting or with an outcome not yet read.
	DefaultMaxHeldPerIdentity = 16
	// DefaultMaxHeld bounds the held calls of a Handler.
	DefaultMaxHeld = 1024
)

// What a held call waits for, as its held answer says.
const (
	waitingApplication = "application" // not (or no longer) for the person
	waitingPerson      = "person"      // the person has not answered
)

// heldCall is one call whose request outlived its client's patience: it
// goes on, on a context of its own, and its caller learns the outcome by
// sending the same request again or reading its status URL.
type heldCall struct {
	id, owner, action, args string
	created                 time.Time
	done                    chan struct{} // closed once reply is set

	// Guarded by heldBook.mu.
	waiting string
	reply   agent.Reply
	ended   time.Time
	kept    bool // in the book, holding a place
	read    bool // the outcome was answered to a request sent again
}

// heldBook keeps a Handler's held calls, bounded per identity and in all
// by internal/bound's rule; an outcome is kept for keep after its call
// ended, then forgotten (lazily, on the book's next use).
type heldBook struct {
	keep   time.Duration
	places *bound.Counter

	mu   sync.Mutex
	byID map[string]*heldCall
}

func newHeldBook(o Options) *heldBook {
	keep := o.KeepOutcome
	if keep <= 0 {
		keep = DefaultKeepOutcome
	}
	return &heldBook{keep: keep, byID: map[string]*heldCall{},
		places: bound.NewCounter(
			bound.Limit{Name: "MaxHeldPerIdentity", Max: bound.Resolve(o.MaxHeldPerIdentity, DefaultMaxHeldPerIdentity)},
			bound.Limit{Name: "MaxHeld", Max: bound.Resolve(o.MaxHeld, DefaultMaxHeld)},
			bound.DefaultRetryAfter)}
}

func newHeldCall(owner, action, args string) *heldCall {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return &heldCall{id: hex.EncodeToString(b[:]), owner: owner, action: action, args: args,
		created: time.Now(), done: make(chan struct{}), waiting: waitingApplication}
}

// admit keeps c, unless its owner or the Handler holds as many as it
// may: then it returns the bound's *bound.Refusal and keeps nothing.
func (b *heldBook) admit(c *heldCall) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	if err := b.places.Take(c.owner); err != nil {
		return err
	}
	b.byID[c.id] = c
	c.kept = true
	return nil
}

func (b *heldBook) sweepLocked() {
	now := time.Now()
	for _, c := range b.byID {
		if !c.ended.IsZero() && now.Sub(c.ended) >= b.keep {
			b.forgetLocked(c)
		}
	}
}

func (b *heldBook) forgetLocked(c *heldCall) {
	if !c.kept {
		return
	}
	delete(b.byID, c.id)
	c.kept = false
	b.places.Give(c.owner)
}

// find returns owner's held call id; another identity's is not found,
// exactly as an id that never was.
func (b *heldBook) find(owner, id string) *heldCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	if c := b.byID[id]; c != nil && c.owner == owner {
		return c
	}
	return nil
}

// rejoin returns owner's oldest held call of action with the same
// arguments, if there is one whose outcome no request sent again has
// been answered with yet (after that, the same request is a new call).
func (b *heldBook) rejoin(owner, action, args string) *heldCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	var found *heldCall
	for _, c := range b.byID {
		if !c.read && c.owner == owner && c.action == action && c.args == args && (found == nil || c.created.Before(found.created)) {
			found = c
		}
	}
	return found
}

// deliver marks c's outcome answered to a request sent again: the same
// request is a new call from now on. The outcome stays readable at the
// status URL until it expires, so a client that left before the answer
// reached it loses nothing.
func (b *heldBook) deliver(c *heldCall) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c.read = true
}

func (b *heldBook) setWaiting(c *heldCall, w string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.ended.IsZero() {
		c.waiting = w
	}
}

func (b *heldBook) finish(c *heldCall, r agent.Reply) {
	b.mu.Lock()
	c.reply, c.ended, c.waiting = r, time.Now(), waitingApplication
	b.mu.Unlock()
	close(c.done)
}

// view returns what c waits for and its outcome.
func (b *heldBook) view(c *heldCall) (waiting string, r agent.Reply) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return c.waiting, c.reply
}

func (b *heldBook) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.byID)
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
	url := h.prefix + "/calls/" + c.id
	data, _ := json.Marshal(heldData{Tag: agent.TagHeld, Capability: c.action, Message: text, Request: c.id,
		WaitingFor: waiting, NothingDone: waiting == waitingPerson, StatusURL: url, KeepSeconds: int64(h.held.keep / time.Second)})
	return Result{Refusal: agent.TagHeld, Message: text, Error: text, Data: data}, url
}

// watch returns ctx telling c what its call waits for.
func (h *Handler) watch(ctx context.Context, c *heldCall) context.Context {
	ctx = agent.WhileAwaitingApproval(ctx, func(agent.ApprovalRequest) { h.held.setWaiting(c, waitingPerson) })
	return agent.WhenApprovalEnds(ctx, func(agent.ApprovalRequest, agent.Withdrawal) { h.held.setWaiting(c, waitingApplication) })
}
