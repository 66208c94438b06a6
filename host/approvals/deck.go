package approvals

import (
	"slices"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// DefaultSettle is how long a card must have been on screen, unchanged,
// before the person's keys answer it, when Options.Settle is zero.
const DefaultSettle = time.Second

// Options configures a Deck (NewDeck). The zero value is valid: the
// default settle time, answers by "you", and callers numbered by an
// Agents of the Deck's own.
type Options struct {
	// Settle is how long the card in front must have been on screen,
	// unchanged, before a key answers it. Zero means DefaultSettle; a
	// negative value means none (for tests of an application's own that
	// drive the deck by hand, never for a person).
	Settle time.Duration
	// By names who answers, for the audit log (agent.ApprovalAnswer.By).
	// "" means "you".
	By string
	// Agents numbers the asking callers; share it with the Activity
	// lines so both name an agent alike. Nil means a new one.
	Agents *Agents
}

// KeyResult says what a key did to the Deck.
type KeyResult int

const (
	// NotMine: no card is shown, or the key is neither y nor n. The key
	// belongs to the application.
	NotMine KeyResult = iota
	// Dropped: a card is shown and has not settled (the card says so),
	// or a y or n came within the settle time after the last card left
	// the screen unanswered (withdrawn under the person's finger). The
	// key answers nothing and is not kept for later.
	Dropped
	// Answered: the key answered the card in front; the returned answer
	// names it and its fingerprint.
	Answered
	// NotWhole: a y on a settled card that is not Whole (it cannot show
	// everything the approval covers). It approves nothing and is not
	// the application's key; n declines such a card.
	NotWhole
)

// Deck is the person's side of approvals: the requests waiting for them,
// oldest first, one card at a time. It is a value, like a Model: every
// method returns a new Deck and leaves the one it was called on as it
// was, so a Deck can live in an application's Model or beside it.
//
// Feed it the runtime's ApprovalAsked and ApprovalWithdrawn Messages
// (Update) or its PendingApprovals (Sync), draw Card, and pass it the
// person's keys (Key). Every method takes the time now, so the settle
// time follows the clock the caller gives it: a test drives it with no
// sleeps.
//
// The zero Deck is empty and valid: the default settle time, answers by
// "you", every caller named "an agent" (NewDeck numbers them).
type Deck struct {
	opts  Options
	reqs  []agent.ApprovalRequest
	front front     // the card in front when last drawn or changed
	since time.Time // when it came to the front, unchanged since
	early bool      // a key came before it settled, and was dropped
	left  time.Time // when the last card left the screen unanswered by the person
}

// front names a card: the request and what it shows.
type front struct{ id, digest string }

// NewDeck returns an empty Deck configured by opts.
func NewDeck(opts Options) Deck {
	if opts.Agents == nil {
		opts.Agents = &Agents{}
	}
	return Deck{opts: opts}
}

// Update takes the runtime's approval Messages: an ApprovalAsked adds
// its request (or replaces a pending one with the same id), an
// ApprovalWithdrawn removes one. It reports whether msg was one of them;
// any other Message leaves the Deck as it was.
func (d Deck) Update(msg any, now time.Time) (Deck, bool) {
	switch m := msg.(type) {
	case agent.ApprovalAsked:
		return d.Ask(m.Request, now), true
	case agent.ApprovalWithdrawn:
		return d.Withdraw(m.ID, now), true
	}
	return d, false
}

// Ask adds q behind the requests already waiting, or replaces the one
// with its id where it stands.
func (d Deck) Ask(q agent.ApprovalRequest, now time.Time) Deck {
	reqs := slices.Clone(d.reqs)
	if i := slices.IndexFunc(reqs, func(p agent.ApprovalRequest) bool { return p.ID == q.ID }); i >= 0 {
		reqs[i] = q
	} else {
		reqs = append(reqs, q)
	}
	d.reqs = reqs
	return d.refront(now)
}

// Withdraw removes the request id (answered, void, timed out, or given up
// by its caller); an id the Deck does not hold changes nothing.
func (d Deck) Withdraw(id string, now time.Time) Deck {
	if !slices.ContainsFunc(d.reqs, func(p agent.ApprovalRequest) bool { return p.ID == id }) {
		return d
	}
	d.reqs = slices.DeleteFunc(slices.Clone(d.reqs), func(p agent.ApprovalRequest) bool { return p.ID == id })
	return d.refront(now)
}

// Sync makes the Deck hold exactly pending (a runtime's
// PendingApprovals, oldest first): for an application that reads the
// list rather than receiving the Messages.
func (d Deck) Sync(pending []agent.ApprovalRequest, now time.Time) Deck {
	d.reqs = slices.Clone(pending)
	return d.refront(now)
}

// refront restarts the settle time when the card in front is not the
// one that was: another request, or the same one showing something else.
func (d Deck) refront(now time.Time) Deck {
	var f front
	if len(d.reqs) > 0 {
		f = front{d.reqs[0].ID, d.reqs[0].Digest()}
	}
	if f != d.front {
		if f == (front{}) {
			d.left = now // the screen's last card went
		}
		d.front, d.since, d.early = f, now, false
	}
	return d
}

// Redrawn tells the Deck the card in front is now drawn as it was not
// before (a view that showed it cut shows it whole): what the person can
// read changed, so its settle time starts again. With no card shown it
// changes nothing.
func (d Deck) Redrawn(now time.Time) Deck {
	if len(d.reqs) > 0 {
		d.since, d.early = now, false
	}
	return d
}

// justLeft reports whether a card left the screen, unanswered by the
// person, less than the settle time before now: their y or n was meant
// for it.
func (d Deck) justLeft(now time.Time) bool {
	return !d.left.IsZero() && now.Before(d.left.Add(d.settle()))
}

// Len returns how many requests wait.
func (d Deck) Len() int { return len(d.reqs) }

// Pending returns the waiting requests, oldest first.
func (d Deck) Pending() []agent.ApprovalRequest { return slices.Clone(d.reqs) }

func (d Deck) settle() time.Duration {
	switch {
	case d.opts.Settle == 0:
		return DefaultSettle
	case d.opts.Settle < 0:
		return 0
	}
	return d.opts.Settle
}

// SettlesAt returns when the card in front settles: a host that draws
// the card schedules a redraw then (the card then tells the person their
// keys count). It reports false when no card is shown.
func (d Deck) SettlesAt() (time.Time, bool) {
	if len(d.reqs) == 0 {
		return time.Time{}, false
	}
	return d.since.Add(d.settle()), true
}

// Key gives the Deck a key the person pressed, by its name as Bubble Tea
// spells it ("y", "n"). Pass it only the person's own keys, never a key
// press that reached the application as an agent's Message: that would
// let the agent answer its own request (host/teahost tells them apart).
// While a card is shown every key that goes to the application restarts
// its settle time: a person typing into the application when the card
// came is not reading it. On a card that has settled, y approves it and
// n declines it: the returned answer (built by ApprovalRequest.Approve or
// Decline, so it names the fingerprint of the card drawn) is the
// Message for the application to dispatch, in-app, and the card leaves
// the Deck. Before it settled, y and n are Dropped. Any other key, or
// any key with no card shown, is NotMine. A y on a settled card that is
// not Whole is NotWhole: the person was not shown all it would approve.
func (d Deck) Key(key string, now time.Time) (Deck, agent.ApprovalAnswer, KeyResult) {
	if len(d.reqs) == 0 {
		if (key == "y" || key == "n") && d.justLeft(now) {
			// Meant for a card withdrawn under the person's finger: it
			// must not answer a prompt of the application's instead.
			return d, agent.ApprovalAnswer{}, Dropped
		}
		return d, agent.ApprovalAnswer{}, NotMine
	}
	if key != "y" && key != "n" {
		// Someone typing into the application is not reading the card:
		// it settles once they have stopped as long.
		if now.After(d.since) {
			d.since = now
		}
		return d, agent.ApprovalAnswer{}, NotMine
	}
	if now.Before(d.since.Add(d.settle())) {
		d.early = true
		return d, agent.ApprovalAnswer{}, Dropped
	}
	q := d.reqs[0]
	if key == "y" && !whole(covers(q)) {
		return d, agent.ApprovalAnswer{}, NotWhole
	}
	by := d.opts.By
	if by == "" {
		by = "you"
	}
	answer := q.Decline(by, "")
	if key == "y" {
		answer = q.Approve(by)
	}
	d = d.Withdraw(q.ID, now)
	d.left = time.Time{} // the person answered it: no key of theirs was meant for a card gone
	return d, answer, Answered
}

// Card returns the card in front as it is to be drawn now, and false
// when no request waits.
func (d Deck) Card(now time.Time) (Card, bool) {
	if len(d.reqs) == 0 {
		return Card{}, false
	}
	q := d.reqs[0]
	c := Card{
		Request:  q,
		Position: 1, Of: len(d.reqs),
		Agent:   d.opts.Agents.Name(q.Caller),
		Covers:  covers(q),
		Dropped: d.early,
	}
	c.Whole = whole(c.Covers)
	if wait := d.since.Add(d.settle()).Sub(now); wait > 0 {
		c.Wait = wait
	} else {
		c.Settled = true
	}
	return c, true
}
