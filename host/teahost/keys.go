package teahost

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Keys is a Message that carries key presses a person could make, for an
// application whose only Messages are keys (most built from bubbles
// components are). The Host applies them on Bubble Tea's event loop in
// one turn, one application Update per press, with nothing in between: a
// person's own key cannot land in the middle of them. Before the first
// press it asks the action's guard, with the application's current model,
// whether the keys may land; when the mode has changed since the agent
// looked (a filter is being typed, a dialog opened), none is applied.
// Either way listeners then observe a [KeysDone] (or, when not every press
// was applied, a [KeysRefused]) that says what happened.
//
// Build Keys with [NewKeys]; package host/teahost/keyact declares agent
// capabilities that send them. The zero value presses nothing and is
// always allowed.
type Keys struct {
	// Invocation identifies the call that sent the keys; KeysDone repeats
	// it, so the call can tell its own outcome from another's.
	Invocation string
	// Action is the capability's name, repeated in KeysDone.
	Action string
	// Presses are the key presses, in order.
	Presses []tea.KeyPressMsg

	check   func(tea.Model) (refused string)
	settled func(tea.Model) bool
}

// AwaitSettled returns k telling its KeysDone only once the Cmds its
// presses returned have all come back (their Messages applied) and
// settled holds of the application's model, asked then and again after
// every later Update, for an application that finishes what the presses
// began in a Cmd (bubbles' list filters in one, per press, and shows
// whichever result comes last): the outcome then reports what the
// application shows, not what it showed between. A press's Cmd that
// waits (a cursor's blink, half a second) delays the outcome as long;
// one that never returns holds it until the call gives up. Until then
// the Keys have been observed and their KeysDone not. A refused or
// panicked press is told at once. At most MaxUnsettled Keys wait so;
// beyond that a KeysDone is told at once. A settled that panics counts as
// settled.
func (k Keys) AwaitSettled(settled func(tea.Model) bool) Keys {
	k.settled = settled
	return k
}

// MaxUnsettled is how many Keys may wait for AwaitSettled's condition at
// once.
const MaxUnsettled = 64

// unsettled is a Keys whose KeysDone waits for its condition.
type unsettled struct {
	k      Keys
	done   KeysDone
	before uint64 // the model's fingerprint before the presses
	// id tells its keysReturned from another's; pending counts the
	// presses' Cmds whose Messages have not yet been applied.
	id      uint64
	pending int
}

// keysReturned follows, in a sequence, a Cmd an unsettled Keys' press
// returned: Bubble Tea's event loop takes it after the Cmd's Message
// (or every Message of a batch it returned) was applied.
type keysReturned struct{ id uint64 }

// track makes each of cmds tell u, once its Messages were applied, and
// counts them as pending.
func (u *unsettled) track(cmds []tea.Cmd) {
	id := u.id
	back := func() tea.Msg { return keysReturned{id} }
	for i, c := range cmds {
		if c != nil {
			u.pending++
			cmds[i] = tea.Sequence(c, back)
		}
	}
}

// keysReturned counts one of an unsettled Keys' Cmds as back, and tells
// the Keys whose condition now holds.
func (h *Host[M, Msg]) keysReturned(r keysReturned, model tea.Model) {
	for i := range h.unsettled {
		if h.unsettled[i].id == r.id {
			h.unsettled[i].pending--
		}
	}
	h.settleKeys(model)
}

// NewKeys returns Keys for invocation and action. check (nil for none) is
// asked of the application's model on the event loop just before the
// first press: a non-empty answer is the refusal KeysDone reports, and no
// key is pressed.
func NewKeys(invocation, action string, check func(tea.Model) (refused string), presses ...tea.KeyPressMsg) Keys {
	return Keys{Invocation: invocation, Action: action, Presses: presses, check: check}
}

// KeysDone reports what the Host did with a Keys Message. Listeners
// (Observe) receive it right after the Keys themselves, once the model the
// presses produced is what Model returns.
type KeysDone struct {
	// Invocation and Action repeat the Keys'.
	Invocation string `json:"invocation"`
	Action     string `json:"action"`
	// Keys names the presses applied, as Bubble Tea spells them ("down",
	// "enter", "a"); empty when none was.
	Keys []string `json:"keys"`
	// Applied is true when every press was applied.
	Applied bool `json:"applied"`
	// Refused says why not, when Applied is false: what the Keys' check
	// answered (keyact's are "not_offered", the application is no longer
	// in the mode the action is offered in, and "moved", what the presses
	// were computed from has changed), in which case no key was pressed;
	// or "panic", the application's Update panicked on a press (the
	// presses before it were applied).
	Refused string `json:"refused,omitempty"`
	// Changed reports whether the presses changed the application's
	// model.
	Changed bool `json:"changed"`
}

// KeysRefused is what listeners receive instead of KeysDone when not
// every press was applied (Applied false, Refused set): a type of its own,
// so that a completion can tell the two apart.
type KeysRefused KeysDone

// KeysPanicked is KeysDone.Refused when the application's Update
// panicked on a press.
const KeysPanicked = "panic"

// pressKeys applies k to the application's model on the event loop (the
// wrapper's Update calls it for a Keys Message).
func (w wrapped[M, Msg]) pressKeys(k Keys) (tea.Model, tea.Cmd) {
	h := w.h
	done := KeysDone{Invocation: k.Invocation, Action: k.Action, Keys: []string{}}
	if k.check != nil {
		if done.Refused = h.checkKeys(k.check, w.inner); done.Refused != "" {
			h.tellKeys(k, done)
			return w, nil
		}
	}
	before := fingerprint(w.inner)
	model := w.inner
	var cmds []tea.Cmd
	for _, p := range k.Presses {
		next, cmd, ok := h.update(model, p)
		if !ok {
			done.Refused = KeysPanicked
			break
		}
		if next != nil {
			model = next
		}
		cmds = append(cmds, cmd)
		done.Keys = append(done.Keys, p.String())
	}
	done.Applied = done.Refused == ""
	done.Changed = fingerprint(model) != before
	if m, ok := model.(M); ok {
		h.publish(&versioned[M]{model: h.snapshot(m), version: h.model.Load().version + 1})
		h.settle()
		h.subs.Each(func(fn func()) { h.callSub(fn, k) })
	} else {
		h.violation(&Violation{Kind: TypeChanged, Msg: k, Model: fmt.Sprintf("%T", model)})
	}
	if done.Applied && k.settled != nil && len(h.unsettled) < MaxUnsettled {
		h.settleIDs++
		u := unsettled{k: k, done: done, before: before, id: h.settleIDs}
		u.track(cmds)
		if u.pending > 0 || !h.isSettled(k, model) {
			h.observe(k)
			h.unsettled = append(h.unsettled, u)
		} else {
			h.tellKeys(k, done)
		}
	} else {
		h.tellKeys(k, done)
	}
	h.settleKeys(model)
	w.inner = model // the wrapper's own state (the approval deck) stays
	return w, tea.Batch(cmds...)
}

// settleKeys tells the KeysDone of every waiting Keys whose condition now
// holds of model. Only the event loop calls it, after an Update.
func (h *Host[M, Msg]) settleKeys(model tea.Model) {
	if len(h.unsettled) == 0 {
		return
	}
	waiting := h.unsettled[:0]
	for _, u := range h.unsettled {
		if u.pending > 0 || !h.isSettled(u.k, model) {
			waiting = append(waiting, u)
			continue
		}
		u.done.Changed = fingerprint(model) != u.before
		h.tellOutcome(u.done)
	}
	clear(h.unsettled[len(waiting):])
	h.unsettled = waiting
}

// isSettled asks k's condition of model; a panic counts as settled.
func (h *Host[M, Msg]) isSettled(k Keys, model tea.Model) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = true
		}
	}()
	return k.settled(model)
}

// checkKeys asks check of the live model; a panic in it refuses the keys
// with KeysPanicked.
func (h *Host[M, Msg]) checkKeys(check func(tea.Model) string, m tea.Model) (refused string) {
	defer func() {
		if r := recover(); r != nil {
			refused = KeysPanicked
		}
	}()
	return check(m)
}

// tellKeys hands the Keys, then what became of them, to Observe listeners
// whose Message type can hold them.
func (h *Host[M, Msg]) tellKeys(k Keys, done KeysDone) {
	h.observe(k)
	h.tellOutcome(done)
}

// tellOutcome hands KeysDone, or KeysRefused when not every press was
// applied, to Observe listeners whose Message type can hold it.
func (h *Host[M, Msg]) tellOutcome(done KeysDone) {
	var outcome tea.Msg = done
	if !done.Applied {
		outcome = KeysRefused(done)
	}
	h.observe(outcome)
}

// observe hands m to Observe listeners whose Message type can hold it.
func (h *Host[M, Msg]) observe(m tea.Msg) {
	if am, ok := m.(Msg); ok {
		h.obs.Each(func(fn func(Msg)) { h.callObs(fn, am) })
	}
}

// Key returns the key press Bubble Tea would report for name, spelt as
// tea.KeyPressMsg.String spells it: "enter", "esc", "down", "ctrl+c",
// "shift+tab", "space", or a single character ("a", "/", "é"). It panics
// on a name it does not know: key names are written in the contract.
func Key(name string) tea.KeyPressMsg {
	k, err := parseKey(name)
	if err != nil {
		panic(err)
	}
	return k
}

// Type returns the presses that type text, one per character. Agent text
// goes through it as characters only: a newline or escape in it is a
// character the application receives as typed, never a named key.
func Type(text string) []tea.KeyPressMsg {
	out := make([]tea.KeyPressMsg, 0, len(text))
	for _, r := range text {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

var namedKeys = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
	"backspace": tea.KeyBackspace, "delete": tea.KeyDelete, "space": tea.KeySpace,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"insert": tea.KeyInsert,
}

var modifiers = map[string]tea.KeyMod{
	"ctrl": tea.ModCtrl, "alt": tea.ModAlt, "shift": tea.ModShift,
}

func parseKey(name string) (tea.KeyPressMsg, error) {
	var k tea.KeyPressMsg
	parts := strings.Split(name, "+")
	if name == "+" {
		parts = []string{"+"}
	}
	base := parts[len(parts)-1]
	for _, p := range parts[:len(parts)-1] {
		mod, ok := modifiers[p]
		if !ok {
			return k, fmt.Errorf("teahost: Key(%q): %q is not a modifier (ctrl, alt, shift)", name, p)
		}
		k.Mod |= mod
	}
	if code, ok := namedKeys[base]; ok {
		k.Code = code
		return k, nil
	}
	if r := []rune(base); len(r) == 1 {
		k.Code = r[0]
		if k.Mod&^tea.ModShift == 0 {
			k.Text = base
		}
		return k, nil
	}
	return k, fmt.Errorf("teahost: Key(%q): not a key name Bubble Tea reports", name)
}
