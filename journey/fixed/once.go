package fixed

import (
	"bytes"
	"encoding/json"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
)

// A port serves one conversation, so a sentence that explains a field
// (what arrival: observed means, why steps may be out of date, how to fire
// a ready step) is said once: the first answer that needs it carries it,
// later answers carry the field it explains and not the sentence again.
// The facts header is said in full once; later facts open with its short
// form. A ready step's input schema is given once, then "as-before"; a
// later row as the last journey answer gave it is counted, not listed
// (laterDelta); a brief word for word the last one is not given again,
// nor a journey's frame and standing as its last answer gave them
// (frameDelta).
// Options.Repeat turns all of this off.

// told is what a port has told its one conversation, and the rules by
// which it does not say it again. Port.Undelivered (forget) takes back
// what an answer that never arrived said; Share (or Options.Repeat) turns
// every rule off for good. It is safe for concurrent use.
type told struct {
	mu sync.Mutex
	// said is the legend sentences, facts headers, row does and input
	// schemas given (keys as dropSaid and legendIn name them).
	said map[string]bool
	// repeat serves every answer whole (Options.Repeat, or Share).
	repeat atomic.Bool
	// lastBrief is the last whats_here brief given.
	lastBrief string
	// laterNow is the laterSteps rows of the last journey answer given
	// (journey and step to encoded row), laterPrev those of the one
	// before it (laterDelta).
	laterNow, laterPrev map[string]string
	// frameNow is the frame and standing the last journey answer gave
	// (journey and key to value), framePrev those before it (frameDelta).
	frameNow, framePrev map[string]string
}

func newTold(repeat bool) *told {
	m := &told{said: map[string]bool{}}
	m.repeat.Store(repeat)
	return m
}

// share turns the rules off: every answer from now on is whole.
func (m *told) share() { m.repeat.Store(true) }

// legend is the set of sentences said once per port. Situational
// sentences (a refusal's why, a howToAct that says what to do now) are
// never in it: only those that explain a field or a standing rule.
var legend = map[string]bool{
	arrObserved: true, arrClaimed: true, stateNotReported: true, withHumanMeans: true, lastRejected: true,
	staleMeans: true, elsewhereMeans: true, newRoundMeans: true, priorInstanceMeans: true, readyHow: true,
	routeMeans: true, laterUnchangedMeans: true, frameSameMeans: true,
}

// sayOnce drops from r, at any depth, every legend sentence this port
// said before, and records those it says now. kept names sentences r
// already carried when it was first answered (Fold re-reads a frame into
// an answer not yet delivered): they stay.
func (m *told) sayOnce(r *CallResult, kept map[string]bool) {
	if m.repeat.Load() {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	asBefore, doesLeft := m.dropSaid(r, kept, "")
	if asBefore && (!m.said[asBeforeMeans] || kept[asBeforeMeans]) {
		m.said[asBeforeMeans] = true
		r.set("expectsAsBeforeMeans", asBeforeMeans)
	}
	if doesLeft && (!m.said[doesSaidMeans] || kept[doesSaidMeans]) {
		m.said[doesSaidMeans] = true
		r.set("doesSaidMeans", doesSaidMeans)
	}
	// A brief word for word the last one given is not given again.
	if b, _ := r.Get("brief"); b != nil {
		switch brief, _ := b.(string); {
		case brief == "":
		case brief == m.lastBrief:
			r.Delete("brief")
			r.set("briefUnchanged", true)
		default:
			m.lastBrief = brief
		}
	}
}

// rowIDs names, for each list of rows an answer carries, the field that
// says which step, action or journey a row is.
var rowIDs = map[string]string{"readySteps": "step", "laterSteps": "step", "withTheHuman": "step", "actions": "action", "journeys": "journey"}

// rowSaid is the key under which a row's does is recorded as said: a
// step's and an action's are one, whichever list gave it.
func rowSaid(row CallResult, list string) string {
	id, does := row.String(rowIDs[list]), row.String("does")
	if rowIDs[list] == "" || id == "" || does == "" {
		return ""
	}
	if list == "journeys" {
		id = "journey " + id
	}
	return "does " + id + " " + does
}

// dropSaid drops what was said before from r, in a list's row (list
// names the list): an input schema already served for that step becomes
// "as-before", and a does already given for that row is left out. It
// reports whether either happened.
func (m *told) dropSaid(r *CallResult, kept map[string]bool, list string) (asBefore, doesLeft bool) {
	if key := rowSaid(*r, list); key != "" {
		if m.said[key] && !kept[key] {
			r.Delete("does")
			doesLeft = true
		}
		m.said[key] = true
	}
	out := r.kv[:0]
	for _, e := range r.kv {
		switch v := e.v.(type) {
		case rawJSON:
			if list == "readySteps" && e.k == "expects" && len(v) > 0 && v[0] == '{' {
				key := "expects " + r.String("step") + " " + string(v)
				if m.said[key] && !kept[key] {
					e.v, asBefore = rawJSON(`"as-before"`), true
				}
				m.said[key] = true
			}
		case string:
			if legend[v] {
				if m.said[v] && !kept[v] {
					continue
				}
				m.said[v] = true
			}
			if e.k == "facts" {
				e.v = m.factsOnce(v, kept)
			}
		case []rawJSON:
			if rowIDs[e.k] != "" {
				rows := make([]rawJSON, len(v))
				for i, raw := range v {
					var d bool
					rows[i], d = m.rawDoesOnce(raw, e.k, kept)
					doesLeft = doesLeft || d
				}
				e.v = rows
			}
		case CallResult:
			a, d := m.dropSaid(&v, kept, "")
			asBefore, doesLeft = asBefore || a, doesLeft || d
			e.v = v
		case []CallResult:
			for i := range v {
				a, d := m.dropSaid(&v[i], kept, e.k)
				asBefore, doesLeft = asBefore || a, doesLeft || d
			}
		}
		out = append(out, e)
	}
	r.kv = out
	return asBefore, doesLeft
}

// legendIn is the set of legend sentences r carries, at any depth.
func legendIn(r CallResult, into map[string]bool) map[string]bool {
	for _, e := range r.kv {
		switch v := e.v.(type) {
		case string:
			if legend[v] {
				into[v] = true
			}
			if head, _, ok := strings.Cut(v, "\n"); ok && e.k == "facts" {
				into[head] = true
			}
		case CallResult:
			legendIn(v, into)
		case []CallResult:
			for _, x := range v {
				legendIn(x, into)
				if key := rowSaid(x, e.k); key != "" {
					into[key] = true
				}
				if ex, ok := x.Get("expects"); ok && e.k == "readySteps" {
					if raw, ok := ex.(rawJSON); ok && len(raw) > 0 && raw[0] == '{' {
						into["expects "+x.String("step")+" "+string(raw)] = true
					}
				}
			}
		}
	}
	return into
}

// factsOnce is a facts block whose header (its first line) this port
// said in full before: the header's short form, then the lines.
func (m *told) factsOnce(facts string, kept map[string]bool) string {
	head, rest, ok := strings.Cut(facts, "\n")
	if !ok || !strings.HasPrefix(head, factsLead) || head == factsShort {
		return facts
	}
	if !m.said[head] || kept[head] {
		m.said[head] = true
		return facts
	}
	return factsShort + "\n" + rest
}

// laterDelta drops from a journey answer's laterSteps each row the last
// journey answer of this port carried exactly so, and counts them
// (laterStepsUnchanged): a step still waiting for the same reason is not
// said again. fold is a re-read of an answer not yet delivered (Fold): it
// is compared with what the model was last given, not with the answer
// it replaces.
func (m *told) laterDelta(r *CallResult, fold bool) {
	m.frameDelta(r, fold)
	v, _ := r.Get("laterSteps")
	rows, ok := v.([]CallResult)
	j := r.String("journey")
	if m.repeat.Load() || !ok || j == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !fold {
		m.laterPrev = m.laterNow
	}
	now := make(map[string]string, len(rows))
	kept := []CallResult{}
	same := 0
	for _, row := range rows {
		key := j + " " + row.String("step")
		enc := string(row.JSON())
		now[key] = enc
		if m.laterPrev[key] == enc {
			same++
			continue
		}
		kept = append(kept, row)
	}
	m.laterNow = now
	r.set("laterSteps", kept)
	if same == 0 {
		r.Delete("laterStepsUnchanged")
		r.Delete("laterStepsUnchangedMeans")
		return
	}
	r.set("laterStepsUnchanged", same)
	r.set("laterStepsUnchangedMeans", laterUnchangedMeans)
}

// frameDelta drops from a journey answer its frame and standing where
// they are those the last answer about that journey gave (what that
// means is said once, frameSameMeans): a model reads them when they
// change. A new round's are always given. fold compares with what the
// model was last given, as in laterDelta.
func (m *told) frameDelta(r *CallResult, fold bool) {
	j := r.String("journey")
	if m.repeat.Load() || j == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !fold {
		m.framePrev = maps.Clone(m.frameNow)
	}
	if m.frameNow == nil {
		m.frameNow = map[string]string{}
	}
	same := false
	round, _ := r.Get("newRound")
	for _, k := range []string{"frame", "standing"} {
		key := j + " " + k
		v := r.String(k)
		if v == "" {
			delete(m.frameNow, key)
			continue
		}
		m.frameNow[key] = v
		if m.framePrev[key] == v && round != true {
			r.Delete(k)
			same = true
		}
	}
	if !same {
		r.Delete("frameSameMeans")
		return
	}
	r.set("frameSameMeans", frameSameMeans)
}

// rawDoesOnce is dropSaid's rule for a row served pre-encoded (whats_here
// keeps its rows as the bytes a later delta compares with): a does this
// port gave for that row before is cut from a copy of the bytes.
func (m *told) rawDoesOnce(raw rawJSON, list string, kept map[string]bool) (rawJSON, bool) {
	var row struct{ Action, Journey, Does string }
	if json.Unmarshal(raw, &row) != nil || row.Does == "" {
		return raw, false
	}
	var r CallResult
	r.set(rowIDs[list], row.Action+row.Journey).set("does", row.Does)
	key := rowSaid(r, list)
	enc, err := marshal(row.Does)
	field := append([]byte(`,"does":`), enc...)
	if key == "" || err != nil || bytes.Count(raw, field) != 1 {
		return raw, false
	}
	if m.said[key] && !kept[key] {
		return bytes.Replace(raw, field, nil, 1), true
	}
	m.said[key] = true
	return raw, false
}

// forget takes back what r said: it never reached the model (see
// Port.Undelivered).
func (m *told) forget(r CallResult) {
	if m.repeat.Load() {
		return
	}
	said := legendIn(r, map[string]bool{})
	if v, _ := r.Get("expectsAsBeforeMeans"); v != nil {
		said[asBeforeMeans] = true
	}
	brief, _ := r.Get("brief")
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range said {
		delete(m.said, k)
	}
	// A does cut from whats_here's pre-encoded rows is not in r's
	// values: every does is given again, at the cost of a repetition.
	for k := range m.said {
		if strings.HasPrefix(k, "does ") {
			delete(m.said, k)
		}
	}
	if b, _ := brief.(string); b != "" && b == m.lastBrief {
		m.lastBrief = ""
	}
	if j := r.String("journey"); j != "" {
		m.laterNow = nil
		// The next answer about this journey gives its frame and
		// standing again.
		delete(m.frameNow, j+" frame")
		delete(m.frameNow, j+" standing")
	}
}
