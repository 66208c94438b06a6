package devtools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// Why a replay could not rebuild a version: the Reason of a ReplayError.
const (
	// ReplayWindowPassed: no keyframe at or before the version has every
	// Message after it still kept.
	ReplayWindowPassed = "window-passed"
	// ReplayNoUpdate: the devtools have no update function to replay with.
	ReplayNoUpdate = "no-update"
	// ReplayUpdatePanicked: update panicked on a recorded Message.
	ReplayUpdatePanicked = "update-panicked"
	// ReplayMismatch: the replayed Model differs from the recorded one:
	// update depends on something besides the Model and the Message (the
	// time, I/O, a random number), or changed a Model in place.
	ReplayMismatch = "mismatch"
	// ReplayNotEncoded: a Model does not encode as JSON, so the replayed
	// and recorded Models cannot be compared.
	ReplayNotEncoded = "not-encoded"
)

// ReplayError says why a version could not be rebuilt.
type ReplayError struct {
	Version uint64 `json:"version"`
	Reason  string `json:"reason"`
	// At is the version where the replay stopped or first differed.
	At uint64 `json:"at,omitempty"`
	// Differs lists the paths that differ (ReplayMismatch).
	Differs []string `json:"differs,omitempty"`
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("devtools: cannot replay to version %d: %s (at version %d)", e.Version, e.Reason, e.At)
}

// Replayed is a version rebuilt by replay.
type Replayed struct {
	Version  uint64 `json:"version"`
	From     uint64 `json:"from"`     // the keyframe replay started from
	Messages int    `json:"messages"` // how many Messages were folded
	Matches  bool   `json:"matches"`  // equals the recorded Model
}

// Replay rebuilds the Model of version by folding the recorded Messages
// from the nearest keyframe through the application's update function in
// a sandbox (never the live application: no command runs, nothing is
// published) and checks every Model it makes against the recorded one.
func (d *Devtools[Model, Msg]) Replay(_ context.Context, version uint64) (Replayed, Model, error) {
	var zero Model
	if d.replay == nil {
		return Replayed{}, zero, &ReplayError{Version: version, Reason: ReplayNoUpdate}
	}
	view := d.hist.snapshot()
	recs, frames := view.recs, view.frames
	from, ok := startFor(frames, recs, version)
	if !ok {
		return Replayed{}, zero, &ReplayError{Version: version, Reason: ReplayWindowPassed}
	}
	m := from.model
	n := 0
	for _, r := range recs {
		if r.version <= from.version || r.version > version {
			continue
		}
		next, err := d.replay(m, r.msg)
		if err != nil {
			return Replayed{}, zero, &ReplayError{Version: version, Reason: ReplayUpdatePanicked, At: r.version}
		}
		if err := sameModel(next, r.model, version, r.version); err != nil {
			return Replayed{}, zero, err
		}
		m, n = next, n+1
	}
	return Replayed{Version: version, From: from.version, Messages: n, Matches: true}, m, nil
}

// startFor returns the latest keyframe at or before version from which
// every Message up to version is kept.
func startFor[Model, Msg any](frames []keyframe[Model], recs []record[Model, Msg], version uint64) (keyframe[Model], bool) {
	if len(recs) == 0 || version > recs[len(recs)-1].version {
		return keyframe[Model]{}, false
	}
	oldest := recs[0].version
	for i := len(frames) - 1; i >= 0; i-- {
		f := frames[i]
		if f.version <= version && f.version+1 >= oldest {
			return f, true
		}
	}
	return keyframe[Model]{}, false
}

// sameModel compares a replayed Model with the recorded one by their
// JSON encodings.
func sameModel(got, want any, version, at uint64) error {
	a, err1 := json.Marshal(got)
	b, err2 := json.Marshal(want)
	if err1 != nil || err2 != nil {
		return &ReplayError{Version: version, Reason: ReplayNotEncoded, At: at}
	}
	if bytes.Equal(a, b) {
		return nil
	}
	e := &ReplayError{Version: version, Reason: ReplayMismatch, At: at}
	x, _ := tree(got)
	y, _ := tree(want)
	for _, c := range diff(x, y) {
		e.Differs = append(e.Differs, c.Path)
	}
	return e
}
