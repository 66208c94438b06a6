package fixed

import (
	"strings"
	"testing"
)

// told's rules, one conversation at a time: each case serves its answers
// in order, as Port.Call does, takes back the one at forget (an answer
// that never arrived), and checks the last answer's keys: "key" present,
// "!key" absent, "key=<JSON>" present with that encoding.
func TestToldSaysEachThingOnce(t *testing.T) {
	legendOnly := func() CallResult { var r CallResult; r.set("ok", true).set("howToAct", readyHow); return r }
	facts := func() CallResult {
		var r CallResult
		r.set("facts", factsLead+" The rest of the header.\nYou are on: a.")
		return r
	}
	brief := func() CallResult { var r CallResult; r.set("brief", "You are on: a."); return r }
	row := func(k string, v any) func() CallResult {
		return func() CallResult {
			var step CallResult
			step.set("step", "a.s").set(k, v)
			var r CallResult
			r.set("readySteps", []CallResult{step})
			return r
		}
	}
	schema, does := row("expects", rawJSON(`{"type":"object"}`)), row("does", "Do it.")
	frame := func(round bool) func() CallResult {
		return func() CallResult {
			var r CallResult
			r.set("journey", "j").set("frame", "open").set("standing", "in-progress")
			if round {
				r.set("newRound", true)
			}
			return r
		}
	}
	later := func() CallResult {
		var a, b CallResult
		a.set("step", "a.x").set("status", "off-node")
		b.set("step", "a.y").set("status", "off-node")
		var r CallResult
		r.set("journey", "j").set("laterSteps", []CallResult{a, b})
		return r
	}
	twice := func(f func() CallResult) []func() CallResult { return []func() CallResult{f, f} }
	for _, c := range []struct {
		name    string
		repeat  bool
		answers []func() CallResult
		forget  int
		want    []string
	}{
		{"a legend sentence is said by the first answer only", false, twice(legendOnly), -1, []string{"ok", "!howToAct"}},
		{"repeat says it every time", true, twice(legendOnly), -1, []string{"howToAct"}},
		{"an answer that never arrived did not say it", false, twice(legendOnly), 0, []string{"howToAct"}},
		{"the facts header is said in full once, then short", false, twice(facts), -1,
			[]string{`facts="` + factsShort + `\nYou are on: a."`}},
		{"a brief word for word the last is not given again", false, twice(brief), -1, []string{"!brief", "briefUnchanged=true"}},
		{"an undelivered brief is given again", false, twice(brief), 0, []string{"brief", "!briefUnchanged"}},
		{"an input schema is given once, then as-before, explained", false, twice(schema), -1,
			[]string{`readySteps=[{"step":"a.s","expects":"as-before"}]`, "expectsAsBeforeMeans"}},
		{"as-before is explained once", false, []func() CallResult{schema, schema, schema}, -1,
			[]string{`readySteps=[{"step":"a.s","expects":"as-before"}]`, "!expectsAsBeforeMeans"}},
		{"a row's does is given once, explained", false, twice(does), -1, []string{`readySteps=[{"step":"a.s"}]`, "doesSaidMeans"}},
		{"repeat gives does again", true, twice(does), -1, []string{`readySteps=[{"step":"a.s","does":"Do it."}]`, "!doesSaidMeans"}},
		{"frame and standing as the last answer gave them are left out", false, twice(frame(false)), -1,
			[]string{"!frame", "!standing", "frameSameMeans"}},
		{"a new round's frame is always given", false, []func() CallResult{frame(false), frame(true)}, -1,
			[]string{"frame", "standing", "!frameSameMeans"}},
		{"an undelivered journey answer's frame is given again", false, twice(frame(false)), 0, []string{"frame", "standing"}},
		{"later steps as the last answer gave them are counted", false, twice(later), -1,
			[]string{"laterSteps=[]", "laterStepsUnchanged=2", "laterStepsUnchangedMeans"}},
		{"an undelivered journey answer's later steps are listed again", false, twice(later), 0,
			[]string{`laterSteps=[{"step":"a.x","status":"off-node"},{"step":"a.y","status":"off-node"}]`, "!laterStepsUnchanged"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newTold(c.repeat)
			var last CallResult
			for i, answer := range c.answers {
				last = answer()
				m.laterDelta(&last, false)
				m.sayOnce(&last, nil)
				if i == c.forget {
					m.forget(last)
				}
			}
			for _, w := range c.want {
				key, want, hasValue := strings.Cut(strings.TrimPrefix(w, "!"), "=")
				v, has := last.Get(key)
				switch {
				case strings.HasPrefix(w, "!") && has:
					t.Errorf("%s is given: %s", key, last.JSON())
				case !strings.HasPrefix(w, "!") && !has:
					t.Errorf("%s is missing: %s", key, last.JSON())
				case hasValue && mustJSONText(v) != want:
					t.Errorf("%s is %s, want %s", key, mustJSONText(v), want)
				}
			}
		})
	}
}

// A fold re-reads an answer not yet delivered: what it already carried
// when first answered stays, though the port has said it since.
func TestToldKeepsWhatAFoldedAnswerCarried(t *testing.T) {
	m := newTold(false)
	var first CallResult
	first.set("howToAct", readyHow)
	m.sayOnce(&first, nil)
	kept := legendIn(first, map[string]bool{})
	folded := first.Clone()
	m.sayOnce(&folded, kept)
	if folded.String("howToAct") != readyHow {
		t.Fatalf("the fold lost what the answer carried: %s", folded.JSON())
	}
	var next CallResult
	next.set("howToAct", readyHow)
	m.sayOnce(&next, nil)
	if next.Has("howToAct") {
		t.Fatalf("said again after the fold: %s", next.JSON())
	}
}
