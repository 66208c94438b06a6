package devtools

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"
)

func newToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func itoa(i int) string { return strconv.Itoa(i) }

// VersionError reports a version the devtools do not hold.
type VersionError struct {
	Version, Oldest, Newest uint64
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("devtools: version %d is not kept (versions %d to %d are)", e.Version, e.Oldest, e.Newest)
}

// ModelView is a Model, or a place in it, as served: redacted, and
// summarised when large.
type ModelView struct {
	Version uint64 `json:"version"`
	Path    string `json:"path"`
	Value   any    `json:"value"`
}

// modelAt returns the Model of version v, 0 meaning the current one, and
// its version.
func (d *Devtools[Model, Msg]) modelAt(v uint64) (Model, uint64, error) {
	if v == 0 {
		m, cur := d.host.VersionedModel()
		return m, cur, nil
	}
	if m, ok := d.hist.modelAt(v); ok {
		return m, v, nil
	}
	if m, cur := d.host.VersionedModel(); cur == v {
		return m, v, nil
	}
	old, cur := d.hist.window()
	var zero Model
	return zero, 0, &VersionError{Version: v, Oldest: d.hist.initial.version, Newest: max(cur, old)}
}

// redacted returns v's tree with the redacted places replaced.
func (d *Devtools[Model, Msg]) redacted(v any) (any, error) {
	t, err := tree(v)
	if err != nil {
		return nil, err
	}
	return d.red.apply(t), nil
}

// Model returns the Model of version (0: the current one), or the place
// path (a JSON Pointer) in it.
func (d *Devtools[Model, Msg]) Model(version uint64, path string) (ModelView, error) {
	m, v, err := d.modelAt(version)
	if err != nil {
		return ModelView{}, err
	}
	t, err := d.redacted(m)
	if err != nil {
		return ModelView{}, fmt.Errorf("devtools: the Model does not encode as JSON: %w", err)
	}
	val, err := at(t, path)
	if err != nil {
		return ModelView{}, err
	}
	return ModelView{Version: v, Path: orRoot(path), Value: summarise(val, d.opts.MaxValueBytes)}, nil
}

// Entry is one applied Message as the history tool lists it.
type Entry struct {
	Version uint64    `json:"version"`
	At      time.Time `json:"at"`
	Type    string    `json:"type"`
	// Message is the Message as JSON, redacted, when it encodes; Encoded
	// says whether it did.
	Message any  `json:"message,omitempty"`
	Encoded bool `json:"encoded"`
	// Changed lists the Model paths the Message changed.
	Changed    []string   `json:"changed"`
	Provenance Provenance `json:"provenance"`
	// By is a short name of the provenance ("person", "agent alice").
	By string `json:"by"`
}

// Filter selects history entries. Zero fields select everything.
type Filter struct {
	// Type keeps the Messages of this type name.
	Type string `json:"type,omitempty"`
	// Path keeps the Messages that changed this place or below it.
	Path string `json:"path,omitempty"`
	// Kind keeps the Messages of this provenance kind.
	Kind string `json:"kind,omitempty"`
	// Last keeps the last Last entries that pass the rest.
	Last int `json:"last,omitempty"`
}

// History lists the applied Messages the filter selects, oldest first,
// and how many left the window before.
func (d *Devtools[Model, Msg]) History(f Filter) ([]Entry, uint64) {
	view := d.hist.snapshot()
	recs, dropped, initial := view.recs, view.dropped, view.initial
	prev, _ := tree(initial.model)
	if len(recs) > 0 && recs[0].version != initial.version+1 {
		prev = nil // the window passed the starting Model
	}
	out := []Entry{}
	for _, r := range recs {
		cur, err := tree(r.model)
		var changed []string
		if err == nil && prev != nil {
			for _, c := range diff(prev, cur) {
				changed = append(changed, c.Path)
			}
		}
		prev = cur
		e := d.entry(r, changed)
		if f.keeps(e) {
			out = append(out, e)
		}
	}
	if f.Last > 0 && len(out) > f.Last {
		out = out[len(out)-f.Last:]
	}
	return out, dropped
}

func (f Filter) keeps(e Entry) bool {
	if f.Type != "" && e.Type != f.Type {
		return false
	}
	if f.Kind != "" && e.Provenance.Kind != f.Kind {
		return false
	}
	if f.Path == "" {
		return true
	}
	for _, c := range e.Changed {
		if under(c, f.Path) || under(f.Path, c) {
			return true
		}
	}
	return false
}

func (d *Devtools[Model, Msg]) entry(r record[Model, Msg], changed []string) Entry {
	p := r.prov.provenance(r.cause)
	e := Entry{Version: r.version, At: time.Unix(0, r.at), Type: typeName(r.msg), Changed: changed, Provenance: p, By: p.label()}
	if e.Changed == nil {
		e.Changed = []string{}
	}
	if m, err := d.redacted(r.msg); err == nil {
		e.Message, e.Encoded = m, true
	}
	return e
}

// Counts returns how many kept Messages there are of each type.
func (d *Devtools[Model, Msg]) Counts() map[string]int {
	recs := d.hist.snapshot().recs
	out := map[string]int{}
	for _, r := range recs {
		out[typeName(r.msg)]++
	}
	return out
}

// Diff lists the places the Model of version to differs from that of
// version from (0: the current Model), at or below path, redacted.
func (d *Devtools[Model, Msg]) Diff(from, to uint64, path string) ([]Change, error) {
	a, _, err := d.modelAt(from)
	if err != nil {
		return nil, err
	}
	b, _, err := d.modelAt(to)
	if err != nil {
		return nil, err
	}
	if _, err := splitPath(path); err != nil {
		return nil, err
	}
	x, err := d.redacted(a)
	if err != nil {
		return nil, err
	}
	y, err := d.redacted(b)
	if err != nil {
		return nil, err
	}
	out := []Change{}
	for _, c := range diff(x, y) {
		if under(c.Path, path) {
			c.Before = summarise(c.Before, d.opts.MaxValueBytes)
			c.After = summarise(c.After, d.opts.MaxValueBytes)
			out = append(out, c)
		}
	}
	return out, nil
}

// Types lists the application's Message types with their JSON Schema.
func (d *Devtools[Model, Msg]) Types() []TypeInfo { return d.types.list() }

// AuditRow is an agent audit entry joined to the timeline: the version
// its Message made, when the history holds it.
type AuditRow struct {
	Entry   any    `json:"entry"`
	Version uint64 `json:"version,omitempty"`
	Type    string `json:"type,omitempty"`
}

// Audit joins the agent audit (Options.Audit) to the history by
// invocation id: refusals, stale views and approvals with who answered
// stand beside the version their Message made, if it was applied.
func (d *Devtools[Model, Msg]) Audit(last int) []AuditRow {
	if d.opts.Audit == nil {
		return []AuditRow{}
	}
	recs := d.hist.snapshot().recs
	byInv := map[string]record[Model, Msg]{}
	for _, r := range recs {
		if a := r.prov.agent; a != nil && a.Invocation != "" {
			byInv[a.Invocation] = r
		}
	}
	entries := d.opts.Audit()
	if last > 0 && len(entries) > last {
		entries = entries[len(entries)-last:]
	}
	out := make([]AuditRow, 0, len(entries))
	for _, e := range entries {
		row := AuditRow{Entry: e}
		if r, ok := byInv[e.Invocation]; ok {
			row.Version, row.Type = r.version, typeName(r.msg)
		}
		out = append(out, row)
	}
	return out
}
