package bound

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// DefaultRetryAfter is the retry hint of a Counter built with none: how
// long a refused client should wait before it asks again.
const DefaultRetryAfter = time.Second

// ErrRetryLater matches every *Refusal with errors.Is.
var ErrRetryLater = errors.New("bound: retry later")

// Limit is one bound. The zero Limit bounds nothing.
type Limit struct {
	// Name names the bound as an application sets it: the option, such
	// as "MaxSessionsPerPrincipal". A refusal carries it, so that whoever
	// reads one knows which knob it hit.
	Name string
	// Max is how many may be held at once; zero or negative: no bound.
	Max int
}

// Resolve returns an option's effective maximum: v when positive, def
// when v is zero, and 0 (no bound) when v is negative. It is the one
// reading of every bound option: zero uses the default, negative sets no
// bound.
func Resolve(v, def int) int {
	switch {
	case v > 0:
		return v
	case v == 0:
		return def
	}
	return 0
}

// Refusal is the answer to a request beyond a bound: not now, try again
// later. Nothing was built or changed for the refused request.
type Refusal struct {
	// Bound names the bound that refused (Limit.Name).
	Bound string
	// Limit is that bound's maximum.
	Limit int
	// PerIdentity is true for an identity's own bound, false for the
	// bound over every identity together.
	PerIdentity bool
	// RetryAfter is how long to wait before asking again; positive.
	RetryAfter time.Duration
}

// Error describes the refusal for logs. Surfaces write their own sentence
// for the client, and send the fields as data.
func (r *Refusal) Error() string {
	scope := "overall"
	if r.PerIdentity {
		scope = "per-identity"
	}
	return fmt.Sprintf("bound: the %s bound %s (%d) is reached; retry after %s", scope, r.Bound, r.Limit, r.RetryAfter)
}

// Is reports whether target is ErrRetryLater.
func (r *Refusal) Is(target error) bool { return target == ErrRetryLater }

// RetryAfterSeconds is RetryAfter in whole seconds, rounded up and at
// least 1: the value of an HTTP Retry-After header.
func (r *Refusal) RetryAfterSeconds() int {
	s := int((r.RetryAfter + time.Second - 1) / time.Second)
	return max(s, 1)
}

// Data is the refusal as the data of a protocol error: {"bound",
// "limit", "perIdentity", "retryAfterSeconds"}.
func (r *Refusal) Data() map[string]any {
	return map[string]any{
		"bound":             r.Bound,
		"limit":             r.Limit,
		"perIdentity":       r.PerIdentity,
		"retryAfterSeconds": r.RetryAfterSeconds(),
	}
}

// Header is what SetHeaders sets: an http.Header. The package does not
// import net/http, so that the runtime (and a page compiled to wasm) can
// use it without linking the network stack.
type Header interface{ Set(key, value string) }

// SetHeaders sets the Retry-After header of an HTTP answer to the
// refusal, which is answered 429 (StatusCode).
func (r *Refusal) SetHeaders(h Header) {
	h.Set("Retry-After", strconv.Itoa(r.RetryAfterSeconds()))
}

// StatusCode is the HTTP status a refusal is answered with: 429 Too Many
// Requests.
const StatusCode = 429

// As returns the *Refusal in err's chain, if there is one.
func As(err error) (*Refusal, bool) {
	return errors.AsType[*Refusal](err)
}

// Counter counts what each identity holds of one kind of resource, and
// all of them together, against a per-identity and an overall Limit. It
// is safe for concurrent use. The zero Counter bounds nothing.
type Counter struct {
	perKey, total Limit
	retry         time.Duration

	mu   sync.Mutex
	held map[string]int
	all  int
}

// NewCounter returns a Counter with the two bounds and the retry hint its
// refusals carry (DefaultRetryAfter when zero or negative).
func NewCounter(perKey, total Limit, retry time.Duration) *Counter {
	if retry <= 0 {
		retry = DefaultRetryAfter
	}
	return &Counter{perKey: perKey, total: total, retry: retry}
}

// PerIdentity returns the per-identity bound.
func (c *Counter) PerIdentity() Limit { return c.perKey }

// Overall returns the overall bound.
func (c *Counter) Overall() Limit { return c.total }

// Take takes one place for key, or returns the *Refusal of the bound it
// would pass (the identity's own first). A refusal changes nothing.
func (c *Counter) Take(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.refusalLocked(key); r != nil {
		return r
	}
	if c.held == nil {
		c.held = map[string]int{}
	}
	c.held[key]++
	c.all++
	return nil
}

// Check returns the refusal Take would return now, or nil, taking
// nothing.
func (c *Counter) Check(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.refusalLocked(key); r != nil {
		return r
	}
	return nil
}

func (c *Counter) refusalLocked(key string) *Refusal {
	if m := c.perKey.Max; m > 0 && c.held[key] >= m {
		return &Refusal{Bound: c.perKey.Name, Limit: m, PerIdentity: true, RetryAfter: c.retry}
	}
	if m := c.total.Max; m > 0 && c.all >= m {
		return &Refusal{Bound: c.total.Name, Limit: m, RetryAfter: c.retry}
	}
	return nil
}

// Give gives back one of key's places. Giving back a place key does not
// hold panics: it is a defect of the caller's bookkeeping, which would
// otherwise let the identity pass its bound.
func (c *Counter) Give(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.held[key]
	if n <= 0 {
		panic(fmt.Sprintf("bound: %s: a place given back that was never taken", c.perKey.Name))
	}
	if n == 1 {
		delete(c.held, key)
	} else {
		c.held[key] = n - 1
	}
	c.all--
}

// Acquire takes a place as Take does and returns a Hold that gives it
// back once.
func (c *Counter) Acquire(key string) (*Hold, error) {
	if err := c.Take(key); err != nil {
		return nil, err
	}
	return &Hold{c: c, key: key}, nil
}

// Held returns how many places key holds.
func (c *Counter) Held(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.held[key]
}

// Total returns how many places are held in all.
func (c *Counter) Total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.all
}

// Hold is one place taken by Acquire. A nil Hold holds nothing.
type Hold struct {
	c    *Counter
	key  string
	once sync.Once
}

// Release gives the place back; later calls do nothing.
func (h *Hold) Release() {
	if h == nil {
		return
	}
	h.once.Do(func() { h.c.Give(h.key) })
}
