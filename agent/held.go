package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/foldagent/foldagent/internal/bound"
)

// Defaults of a HeldBound.
const (
	// DefaultMaxHeldPerIdentity is how many calls one identity may have
	// held for the person's approval at once. A person answers cards one
	// at a time; more than a screenful waiting from one agent is a flood,
	// not a request.
	DefaultMaxHeldPerIdentity = 16
	// DefaultMaxHeld is how many calls may be held for approval at once
	// in all, every identity together.
	DefaultMaxHeld = 256
)

// TagRetryLater is the tag of a RetryLaterError.
const TagRetryLater = "AgentRetryLaterError"

// RetryLaterError reports that a call was refused because a bound on what
// is held at once was reached (the calls one identity, or everyone, has
// waiting for the person's approval). Nothing was held and nothing was
// done; the same call may succeed once some of what is held has ended. It
// is retry-safe: wait RetryAfter, then call again.
type RetryLaterError struct {
	Capability string
	Type       string
	// Bound names the bound that was reached, as the option that sets it
	// ("MaxHeldPerIdentity", "MaxHeld").
	Bound string
	// Limit is that bound's maximum.
	Limit int
	// PerIdentity is true when the caller's own bound was reached, false
	// for the bound over every identity.
	PerIdentity bool
	// RetryAfter is how long to wait before calling again.
	RetryAfter time.Duration
}

func (e *RetryLaterError) Error() string {
	if e.PerIdentity {
		return fmt.Sprintf("%q was not run: this caller already has as many calls waiting for the person's approval as the application allows. Nothing was done; call again once some of them have been answered.", e.Capability)
	}
	return fmt.Sprintf("%q was not run: the application already has as many calls waiting for the person's approval as it allows. Nothing was done; call again shortly.", e.Capability)
}

// Tag returns "AgentRetryLaterError".
func (e *RetryLaterError) Tag() string { return TagRetryLater }

// Is lets errors.Is match the bound package's retry-later sentinel, so an
// adapter answers every bound the same way.
func (e *RetryLaterError) Is(target error) bool { return target == bound.ErrRetryLater }

// MarshalJSON encodes the error as {"_tag", "capability", "tag",
// "message", "bound", "limit", "perIdentity", "retryAfterSeconds",
// "retrySafe"}.
func (e *RetryLaterError) MarshalJSON() ([]byte, error) {
	r := bound.Refusal{RetryAfter: e.RetryAfter}
	return json.Marshal(struct {
		_           incomparable
		Tag         string `json:"_tag"`
		Capability  string `json:"capability"`
		Type        string `json:"tag"`
		Message     string `json:"message"`
		Bound       string `json:"bound"`
		Limit       int    `json:"limit"`
		PerIdentity bool   `json:"perIdentity"`
		RetryAfter  int    `json:"retryAfterSeconds"`
		RetrySafe   bool   `json:"retrySafe"`
	}{incomparable{}, e.Tag(), e.Capability, e.Type, e.Error(), e.Bound, e.Limit, e.PerIdentity, r.RetryAfterSeconds(), true})
}

// HeldBound bounds the calls held for the person's approval
// (Variant.Approval) at once: per identity and in all. A call beyond
// either bound is refused with a *RetryLaterError before it is held: no
// card is shown, nothing is dispatched, and the other identities' calls
// are held as before.
//
// Runtimes bound with the same HeldBound (BindOptions.HeldBound) share
// it: an application that binds a runtime per session or per principal
// passes one HeldBound to all of them, keyed by the principal, so that
// an identity's sessions together stay within its bound. It is safe for
// concurrent use.
type HeldBound[P any] struct {
	identity func(ctx context.Context, p P) string
	c        *bound.Counter
}

// NewHeldBound returns a HeldBound allowing perIdentity held calls to one
// identity and total in all (zero uses DefaultMaxHeldPerIdentity and
// DefaultMaxHeld; negative sets no bound). identity names the identity a
// call is counted against, from its context and resolved principal; nil
// counts by the adapter's caller (CallerFrom: an MCP session, an A2A or
// Agent Native identity), and calls with no caller together.
func NewHeldBound[P any](perIdentity, total int, identity func(ctx context.Context, p P) string) *HeldBound[P] {
	if identity == nil {
		identity = func(ctx context.Context, _ P) string { return CallerFrom(ctx) }
	}
	return &HeldBound[P]{identity: identity, c: bound.NewCounter(
		bound.Limit{Name: "MaxHeldPerIdentity", Max: bound.Resolve(perIdentity, DefaultMaxHeldPerIdentity)},
		bound.Limit{Name: "MaxHeld", Max: bound.Resolve(total, DefaultMaxHeld)},
		bound.DefaultRetryAfter)}
}

// Held returns how many calls are held in all.
func (b *HeldBound[P]) Held() int { return b.c.Total() }

// take counts one held call against the caller's identity, or refuses it.
func (b *HeldBound[P]) take(ctx context.Context, p P, capability, tag string) (release func(), err error) {
	h, err := b.c.Acquire(b.identity(ctx, p))
	if err != nil {
		r, _ := bound.As(err)
		return nil, &RetryLaterError{Capability: capability, Type: tag, Bound: r.Bound, Limit: r.Limit, PerIdentity: r.PerIdentity, RetryAfter: r.RetryAfter}
	}
	return h.Release, nil
}
