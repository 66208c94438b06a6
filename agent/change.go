package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sync/atomic"

	"github.com/foldagent/foldagent/agent/internal/wire"
)

// MaxChangeBytes bounds a Change: the encoded paths and values it carries
// together stay under it. Paths past the bound are left out and counted
// (Change.Omitted), never dropped unsaid; a read of the context has them.
const MaxChangeBytes = 1024

// Change is what a call changed of what its caller may see: the paths of
// the contract's context projection whose value differs between the
// Model the call was checked on and the Model its Message made, with
// their new values. An agent learns a call's effect from its result, with
// no read after it.
//
// Paths are JSON Pointers into the context. Objects are compared member
// by member; anything else (an array, a string, a number) is one value,
// reported whole when it changed. A member the projection no longer has
// is marked Removed. Paths are depth first, members sorted by name.
//
// Only what the projection shows is compared: a Model field the
// projection hides never appears here, whatever it did.
type Change struct {
	// From is the version of the Model the call was checked on.
	From uint64 `json:"from"`
	// To is the version of the Model the change was taken at: the one the
	// call's Message made, or, for a call with a completion contract, the
	// one its completing fact was seen at (Result.Version); should the
	// host no longer hold that Model, the newest it has. When To is
	// more than one past From, the change also holds what other Messages
	// applied in between did: what the caller may see changed that much
	// between the two.
	To uint64 `json:"to"`
	// Paths are the changed paths, at most MaxChangeBytes of them.
	Paths []ChangedPath `json:"paths"`
	// Cut is true when paths were left out to keep the bound, and Omitted
	// says how many.
	Cut     bool `json:"cut,omitempty"`
	Omitted int  `json:"omitted,omitempty"`
}

// ChangedPath is one changed path of the context: its new value, or
// Removed when the context no longer has it.
type ChangedPath struct {
	Path    string          `json:"path"`
	Value   json.RawMessage `json:"value,omitempty"`
	Removed bool            `json:"removed,omitempty"`
}

// encodedContext is the context projection's encoding at one version.
type encodedContext struct {
	version uint64
	value   json.RawMessage
}

// contextCache keeps the newest encoding of the context projection: a
// call's "before" is usually the previous call's "after", encoded once.
type contextCache[Model any] struct {
	p    *projection[Model] // the contract's context projection; nil when none
	last atomic.Pointer[encodedContext]
}

// at encodes the context projection of model, of version, reusing the
// newest encoding when it is of that version.
func (c *contextCache[Model]) at(model Model, version uint64) (json.RawMessage, error) {
	if e := c.last.Load(); e != nil && e.version == version {
		return e.value, nil
	}
	b, err := encodeProjection(c.p, model, "context", "context")
	if err != nil {
		return nil, err
	}
	c.keep(version, b)
	return b, nil
}

// keep remembers b as the context's encoding at version, if no newer one
// is kept.
func (c *contextCache[Model]) keep(version uint64, b json.RawMessage) {
	next := &encodedContext{version: version, value: b}
	for {
		old := c.last.Load()
		if old != nil && old.version >= version {
			return
		}
		if c.last.CompareAndSwap(old, next) {
			return
		}
	}
}

// changeOf computes a dispatched call's Change: the context projection on
// before (the Model the call was checked on, of version from) against the
// Model at res.Version. It is nil when the contract projects no context,
// on an unversioned host, or when the projection fails (a read reports
// that failure; the call was dispatched all the same).
func (r *Runtime[Model, Msg, P]) changeOf(ctx context.Context, before Model, from uint64, res *Result) *Change {
	if r.contract.context.p == nil || r.sight.versioned == nil || res.Version == 0 {
		return nil
	}
	after, to, ok := r.sight.modelAt(ctx, res.Version)
	if !ok {
		return nil
	}
	old, err := r.context.at(before, from)
	if err != nil {
		return nil
	}
	now, err := r.context.at(after, to)
	if err != nil {
		return nil
	}
	c := &Change{From: from, To: to, Paths: []ChangedPath{}}
	if !bytes.Equal(old, now) {
		var d differ
		d.diff("", old, now)
		c.Paths, c.Omitted = d.paths, d.omitted
		c.Cut = d.omitted > 0
	}
	return c
}

// modelAt returns the Model of version v once the host has published it
// (a call is answered as update takes its Message, just before the host
// publishes what update made). When the host no longer holds v, or never
// publishes it in time, it returns the Model there is and its version:
// the Change then says honestly which version it was taken at.
func (sg *sight[Model, P]) modelAt(ctx context.Context, v uint64) (Model, uint64, bool) {
	m, now, err := sg.readSnapshot("context")
	if err != nil {
		return m, 0, false
	}
	if now < v {
		if m, now, err = sg.catchUp(ctx, callerLook[Model]{last: look[Model]{version: v}, ok: true}, "context", m, now); err != nil {
			return m, 0, false
		}
	}
	if now == v {
		return m, now, true
	}
	if at, ok := sg.versioned.ModelAt(v); ok {
		return at, v, true
	}
	return m, now, true
}

// differ collects the changed paths between two encodings of one
// projection, within MaxChangeBytes.
type differ struct {
	paths   []ChangedPath
	size    int
	omitted int
}

// diff compares old and now at path: objects member by member, anything
// else whole.
func (d *differ) diff(path string, old, now json.RawMessage) {
	if bytes.Equal(old, now) {
		return
	}
	var om, nm map[string]json.RawMessage
	if isObject(old) && isObject(now) && json.Unmarshal(old, &om) == nil && json.Unmarshal(now, &nm) == nil && om != nil && nm != nil {
		for _, k := range unionKeys(om, nm) {
			p := path + "/" + escapePointer(k)
			nv, inNow := nm[k]
			if !inNow {
				d.add(ChangedPath{Path: p, Removed: true})
				continue
			}
			d.diff(p, om[k], nv)
		}
		return
	}
	d.add(ChangedPath{Path: path, Value: now})
}

// add keeps p if it fits the bound, and counts it out otherwise.
func (d *differ) add(p ChangedPath) {
	// The path, the value and the JSON around them: {"path":"","value":},
	n := len(p.Path) + len(p.Value) + 24
	if d.omitted > 0 || d.size+n > MaxChangeBytes {
		d.omitted++
		return
	}
	d.size += n
	d.paths = append(d.paths, p)
}

func isObject(b json.RawMessage) bool { return len(b) > 0 && b[0] == '{' }

// unionKeys is the members of both objects, sorted.
func unionKeys(om, nm map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(nm)+1)
	for k := range nm {
		keys = append(keys, k)
	}
	for k := range om {
		if _, ok := nm[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// escapePointer escapes a member name as a JSON Pointer token (RFC 6901).
func escapePointer(k string) string { return wire.EscapePointer(k) }
