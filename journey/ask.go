package journey

import (
	"slices"
	"strconv"
	"time"
)

// Receipts are what an ask shows the person deciding: what the action
// will do (authored), why it is offered (guard evidence), where the
// session is, and the last few steps. WillUse (the input and instance) is
// carried only when the session enforces approval: the default path does
// not copy inputs into receipts.
type Receipts struct {
	WillDo             WillDo       `json:"willDo"`
	Because            []Condition  `json:"because"`
	BecauseUnevaluated []string     `json:"becauseUnevaluated,omitempty"`
	WillUse            *WillUse     `json:"willUse,omitempty"`
	YouAreOn           string       `json:"youAreOn"`
	Version            int64        `json:"version"`
	RecentSteps        []RecentStep `json:"recentSteps"`
}

// WillDo is the declared effect of the action an ask is about.
type WillDo struct {
	Does        string   `json:"does"`
	Writes      []string `json:"writes,omitempty"`
	Reads       []string `json:"reads,omitempty"`
	NavigatesTo string   `json:"navigatesTo,omitempty"`
	// EffectUnverifiable: the action declares no writes, no verify and no
	// destination, so nothing could show that it happened.
	EffectUnverifiable bool `json:"effectUnverifiable,omitempty"`
}

// WillUse is the input an approval is bound to (enforced mode only).
type WillUse struct {
	Input    any    `json:"input,omitempty"`
	Instance string `json:"instance,omitempty"`
}

// RecentStep is one of the last fires, for receipts.
type RecentStep struct {
	What    string  `json:"what"`
	Actor   Actor   `json:"principal"`
	Outcome Outcome `json:"outcome"`
}

const maxRecentSteps = 5

type askKey struct {
	action   int
	instance string
}

// askAnswer is what a card was answered: open (not yet), approved or
// declined. Revoked, spent and superseded are marks beside it.
type askAnswer string

const (
	answerOpen     askAnswer = ""
	answerApproved askAnswer = "approved"
	answerDeclined askAnswer = "declined"
)

type ask struct {
	id         string
	an         *actionNode
	instance   string
	input      any
	actor      Actor
	receipts   Receipts
	answer     askAnswer
	by         string
	approvedAt time.Time
	spent      bool
	revoked    bool
	relayed    bool
	superseded bool
	firedAs    string
	inBook     bool
	seq        int64 // the transition counter when the ask was minted
}

// AskStatus is an ask as the book holds it. Answer absent means the card
// is still open.
type AskStatus struct {
	AskID    string `json:"askId"`
	Action   string `json:"affordanceId"`
	Does     string `json:"does,omitempty"`
	Instance string `json:"instance,omitempty"`
	Answer   string `json:"answer,omitempty"`
	Spent    bool   `json:"spent,omitempty"`
	Stale    bool   `json:"stale,omitempty"`
	Revoked  bool   `json:"revoked,omitempty"`
	// RelayedDecline: under enforcement, the caller reported that the
	// person declined; the card stays open until the person answers.
	RelayedDecline bool `json:"relayedDecline,omitempty"`
	// TransitionID is the fire a spent yes authorized.
	TransitionID string `json:"transitionId,omitempty"`
	// Receipts are the receipts minted with the ask.
	Receipts Receipts `json:"receipts"`
}

// AskEvent is delivered to ask observers. Kind is one of ask, superseded,
// approved, declined, revoked, used, relayed-decline.
type AskEvent struct {
	Kind string    `json:"kind"`
	Ask  AskStatus `json:"ask"`
}

// askBook is the part of a session that holds the asks: every card
// minted (bounded by Retention.Closed, open and approved-unspent cards
// kept), the open card per action and instance in default mode, and
// which fire a spent card authorized. It owns the rules of a card's life
// (minted, superseded, answered, revoked, spent, held for the person)
// and tells the ask observers each step. It holds no lock: the session's
// coordinator does. Its zero value is not ready: use newAskBook.
type askBook struct {
	enforced bool          // Options.RequireHumanApproval
	expires  time.Duration // Options.ApprovalExpiresAfter
	now      func() time.Time
	out      *observers

	askSeq      int64
	asks        []*ask
	askByID     map[string]*ask
	openAsk     map[askKey]*ask // default mode: one open ask per action+instance
	asksEvicted int
}

func newAskBook(opts Options) askBook {
	return askBook{enforced: opts.RequireHumanApproval, expires: opts.ApprovalExpiresAfter,
		askByID: map[string]*ask{}, openAsk: map[askKey]*ask{}}
}

func (b *askBook) status(a *ask) AskStatus {
	st := AskStatus{AskID: a.id, Action: a.an.id, Does: a.an.does, Instance: a.instance, Answer: string(a.answer), Spent: a.spent,
		Revoked: a.revoked, RelayedDecline: a.relayed, TransitionID: a.firedAs, Receipts: a.receipts}
	st.Stale = b.stale(a)
	st.Receipts.Because = slices.Clone(st.Receipts.Because)
	st.Receipts.RecentSteps = slices.Clone(st.Receipts.RecentSteps)
	if st.Receipts.WillUse != nil {
		wu := *st.Receipts.WillUse
		wu.Input, _ = normalize(wu.Input)
		st.Receipts.WillUse = &wu
	}
	return st
}

// stale: an enforced yes older than ApprovalExpiresAfter.
func (b *askBook) stale(a *ask) bool {
	return b.enforced && a.answer == answerApproved && !a.spent && !a.revoked &&
		b.expires > 0 && b.now().Sub(a.approvedAt) > b.expires
}

func (b *askBook) event(kind string, a *ask) {
	emit(b.out, &b.out.onAsk, "ask observer", AskEvent{Kind: kind, Ask: b.status(a)})
}

// mint mints a new ask with its receipts; seq is the session's
// transition counter. In default mode there is one open ask per action
// and instance, so asking again supersedes the earlier card.
func (b *askBook) mint(an *actionNode, instance string, input any, by Actor, seq int64, rc Receipts, keep int) *ask {
	if !b.enforced {
		if old := b.openAsk[askKey{an.idx, instance}]; old != nil {
			old.superseded, old.inBook = true, false
			delete(b.openAsk, askKey{an.idx, instance})
			b.event("superseded", old)
		}
	}
	b.askSeq++
	a := &ask{id: "ask#" + strconv.FormatInt(b.askSeq, 10), an: an, instance: instance, actor: by, inBook: true, seq: seq}
	a.input, _ = normalize(input)
	a.receipts = rc
	b.add(a, keep)
	if !b.enforced {
		b.openAsk[askKey{an.idx, instance}] = a
	}
	b.event("ask", a)
	return a
}

// find is the card a fire without an AskID is authorized by: the newest
// for the same action, instance and input that is not spent, revoked,
// declined or superseded; nil if none.
func (b *askBook) find(an *actionNode, instance string, input any) *ask {
	for i := len(b.asks) - 1; i >= 0; i-- {
		c := b.asks[i]
		if c.an == an && c.instance == instance && jsonEqual(c.input, input) && !c.spent && !c.revoked && c.answer != answerDeclined && !c.superseded {
			return c
		}
	}
	return nil
}

// named is the card an AskID names for this fire, nil when it names
// none (or a superseded one), or the APPROVAL_MISMATCH refusal when it
// was asked about something else.
func (b *askBook) named(askID string, an *actionNode, instance string, input any) (*ask, *FireResult) {
	a := b.askByID[askID]
	if a == nil || a.superseded {
		return nil, nil
	}
	differs := ""
	switch {
	case a.an != an:
		differs = "action"
	case !jsonEqual(a.input, input) && a.instance != instance:
		differs = "both"
	case !jsonEqual(a.input, input):
		differs = "input"
	case a.instance != instance:
		differs = "instance"
	}
	if differs != "" {
		return nil, &FireResult{Reason: ReasonApprovalMismatch, AskID: a.id, Differs: differs}
	}
	return a, nil
}

// standing judges the card found for an enforced fire: its yes, or the
// refusal that names why not.
func (b *askBook) standing(a *ask) *FireResult {
	switch {
	case a.revoked:
		return &FireResult{Reason: ReasonApprovalRevoked, AskID: a.id}
	case a.spent:
		return &FireResult{Reason: ReasonApprovalSpent, AskID: a.id}
	case a.answer == answerDeclined:
		return &FireResult{Reason: ReasonApprovalDeclined, AskID: a.id}
	case a.answer == answerOpen:
		rc := a.receipts
		return &FireResult{Reason: ReasonApprovalRequired, AskID: a.id, Receipts: &rc}
	case b.stale(a):
		return &FireResult{Reason: ReasonApprovalStale, AskID: a.id}
	}
	return nil
}

// spend marks the ask used by the fire. Under enforcement a yes is single
// use; in default mode the confirmed card is closed as approved and
// dropped from the book.
func (b *askBook) spend(askID, transitionID string) {
	a := b.askByID[askID]
	if a == nil {
		return
	}
	a.spent, a.firedAs = true, transitionID
	if !b.enforced {
		a.answer = answerApproved
		a.inBook = false
		delete(b.openAsk, askKey{a.an.idx, a.instance})
	}
	b.event("used", a)
}

// list is the book, oldest first (see AskBook.All).
func (b *askBook) list() []AskStatus {
	var out []AskStatus
	for _, a := range b.asks {
		if a.inBook {
			out = append(out, b.status(a))
		}
	}
	return out
}

// door is the person's own door to a card (enforced mode only, a named
// decider, a card that exists).
func (b *askBook) door(askID, by string) (*ask, error) {
	if !b.enforced {
		return nil, &Error{Reason: ReasonNotEnforced, Msg: "the session does not require human approval"}
	}
	if by == "" {
		return nil, &Error{Reason: ReasonNeedsDecider, Msg: "name the person deciding"}
	}
	a, ok := b.askByID[askID]
	if !ok || a.superseded {
		return nil, &Error{Reason: ReasonUnknownAsk, Msg: "no ask has that id", Value: askID}
	}
	return a, nil
}

// answer is the person's yes or no through their door.
func (b *askBook) answer(askID, by string, answer askAnswer) (AskStatus, error) {
	a, err := b.door(askID, by)
	if err != nil {
		return AskStatus{}, err
	}
	switch {
	case a.spent:
		return AskStatus{}, &Error{Reason: ReasonAskAlreadySpent, Msg: "that yes was already used", Value: askID}
	case a.answer != answerOpen || a.revoked:
		return AskStatus{}, &Error{Reason: ReasonAskAlreadyAnswered, Msg: "that ask was already answered", Value: askID}
	}
	a.answer, a.by = answer, by
	if answer == answerApproved {
		a.approvedAt = b.now()
	}
	b.event(string(answer), a)
	return b.status(a), nil
}

// revoke withdraws a standing yes through the person's door.
func (b *askBook) revoke(askID, by string) (AskStatus, error) {
	a, err := b.door(askID, by)
	if err != nil {
		return AskStatus{}, err
	}
	switch {
	case a.spent:
		return AskStatus{}, &Error{Reason: ReasonAskAlreadySpent, Msg: "that yes was already used", Value: askID}
	case a.answer == answerOpen:
		return AskStatus{}, &Error{Reason: ReasonRevokeUnanswered, Msg: "only a yes can be withdrawn; this ask is unanswered", Value: askID}
	case a.answer != answerApproved || a.revoked:
		return AskStatus{}, &Error{Reason: ReasonAskAlreadyAnswered, Msg: "there is no standing yes to withdraw", Value: askID}
	}
	a.revoked, a.by = true, by
	b.event("revoked", a)
	return b.status(a), nil
}

// unanswered is the newest open, unanswered card for the same action,
// instance and input (enforced mode's relayed decline), or nil.
func (b *askBook) unanswered(an *actionNode, instance string, input any) *ask {
	for i := len(b.asks) - 1; i >= 0; i-- {
		c := b.asks[i]
		if c.an == an && c.instance == instance && c.answer == answerOpen && !c.superseded && jsonEqual(c.input, input) {
			return c
		}
	}
	return nil
}

// personAnswered closes a card held for the person with their answer.
func (b *askBook) personAnswered(askID string, answer PersonAnswer, by string) error {
	a, ok := b.askByID[askID]
	if !ok || a.firedAs == "" {
		return &Error{Reason: ReasonUnknownAsk, Msg: "no card held for the person has that id", Value: askID}
	}
	if a.answer != answerOpen || a.revoked || a.spent {
		return &Error{Reason: ReasonAskAlreadyAnswered, Msg: "that card was already answered", Value: askID}
	}
	a.by, a.inBook = by, false
	switch answer {
	case PersonApproved:
		a.answer, a.approvedAt, a.spent = answerApproved, b.now(), true
		b.event("approved", a)
	case PersonDeclined:
		a.answer = answerDeclined
		b.event("declined", a)
	default:
		a.revoked = true
		b.event("revoked", a)
	}
	return nil
}

func (s *askBook) openAskID(an *actionNode) string {
	for i := len(s.asks) - 1; i >= 0; i-- {
		a := s.asks[i]
		if a.an == an && a.inBook && a.answer == answerOpen && !a.superseded {
			return a.id
		}
	}
	return ""
}

// held returns the open card held for the person for a fire, or nil.
func (b *askBook) held(transitionID string) *ask {
	for i := len(b.asks) - 1; i >= 0; i-- {
		if a := b.asks[i]; a.firedAs == transitionID && a.inBook && a.answer == answerOpen && !a.revoked && !a.spent {
			return a
		}
	}
	return nil
}

// receipts are what a card minted now shows the person (see Receipts).
func (s *fold) receipts(an *actionNode, instance string, input any) Receipts {
	_, ev, unev := evalFull(an.guard, s.state, s.redacted)
	if ev == nil {
		ev = []Condition{}
	}
	rc := Receipts{WillDo: WillDo{Does: an.does, Writes: slices.Clone(an.writes), Reads: slices.Clone(an.reads), NavigatesTo: an.goToID,
		EffectUnverifiable: len(an.writes) == 0 && an.verify == nil && an.verifyFn == nil && an.goTo < 0},
		Because: ev, BecauseUnevaluated: unev, YouAreOn: s.pageID(), Version: s.version, RecentSteps: []RecentStep{}}
	if s.opts.RequireHumanApproval {
		in, _ := normalize(input)
		rc.WillUse = &WillUse{Input: in, Instance: instance}
	}
	for i := len(s.ledgers.fires) - 1; i >= 0 && len(rc.RecentSteps) < maxRecentSteps; i-- {
		r := s.ledgers.fires[i]
		rc.RecentSteps = append(rc.RecentSteps, RecentStep{What: r.an.id, Actor: r.t.Actor, Outcome: r.t.Outcome})
	}
	slices.Reverse(rc.RecentSteps)
	return rc
}

// mintAsk mints a card with the receipts of this moment.
func (s *fold) mintAsk(an *actionNode, instance string, input any, by Actor) *ask {
	return s.askBook.mint(an, instance, input, by, s.seq, s.receipts(an, instance, input), s.ledgers.keep.Closed)
}

// approvalGate is the enforced-mode gate: the card whose yes authorizes
// the fire, or the refusal (minting a card when there is none to ask).
func (s *fold) approvalGate(an *actionNode, instance string, input any, opts FireOptions) (*ask, *FireResult) {
	var a *ask
	if opts.AskID != "" {
		var mismatch *FireResult
		if a, mismatch = s.askBook.named(opts.AskID, an, instance, input); mismatch != nil {
			return nil, mismatch
		}
	} else {
		a = s.askBook.find(an, instance, input)
	}
	if a == nil {
		a = s.mintAsk(an, instance, input, ActorAgent)
		rc := a.receipts
		return nil, &FireResult{Reason: ReasonApprovalRequired, AskID: a.id, Receipts: &rc}
	}
	if refused := s.askBook.standing(a); refused != nil {
		return nil, refused
	}
	return a, nil
}

// All lists the ask book, oldest first. In default mode a confirmed card
// leaves the book when its fire is recorded and a superseded card leaves
// when it is asked again; under enforcement every card stays.
func (b AskBook) All() []AskStatus {
	s := &b.s.st
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	return s.askBook.list()
}

// Get returns one ask by its exact id, including a spent card that left
// the book (whose TransitionID names the fire it authorized). A
// superseded card, or any near-miss id, is not found.
func (b AskBook) Get(askID string) (AskStatus, bool) {
	s := &b.s.st
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	a, ok := s.askBook.askByID[askID]
	if !ok || a.superseded {
		return AskStatus{}, false
	}
	return s.askBook.status(a), true
}

// Approve is the application's own Approve button (enforced mode): the
// person named by `by` says yes. The yes authorizes one matching fire.
func (b AskBook) Approve(askID, by string) (AskStatus, error) {
	s := &b.s.st
	b.s.mu.Lock()
	defer b.s.unlock()
	return s.askBook.answer(askID, by, answerApproved)
}

// Decline is the application's own Decline button (enforced mode).
func (b AskBook) Decline(askID, by string) (AskStatus, error) {
	s := &b.s.st
	b.s.mu.Lock()
	defer b.s.unlock()
	return s.askBook.answer(askID, by, answerDeclined)
}

// Revoke withdraws a yes before it is used (enforced mode).
func (b AskBook) Revoke(askID, by string) (AskStatus, error) {
	s := &b.s.st
	b.s.mu.Lock()
	defer b.s.unlock()
	return s.askBook.revoke(askID, by)
}

// DeclineResult says what ReportDecline recorded.
type DeclineResult struct {
	AskID  string `json:"askId"`
	Action string `json:"affordanceId"`
	// Closed is true when the card was closed as declined (default mode).
	Closed bool `json:"closed"`
	// RecordedAs is "your-report" under enforcement: the caller's report
	// is recorded and the card stays open until the person answers.
	RecordedAs string `json:"recordedAs,omitempty"`
}

// ReportDecline records that the person declined a high-effect action, as
// relayed by the caller (a model saying "they said no"). In default mode
// it closes the open card for the action (minting one if none is open)
// as declined. Under enforcement only the person's own door can answer,
// so the report is recorded on the card and closes nothing.
func (b AskBook) ReportDecline(actionID string, opts FireOptions) (DeclineResult, error) {
	s := &b.s.st
	b.s.mu.Lock()
	defer b.s.unlock()
	an, ok := s.g.actionIndex[actionID]
	if !ok {
		return DeclineResult{}, &Error{Reason: ReasonUnknownAction, Msg: "ReportDecline names an action the graph does not declare", Value: actionID}
	}
	src := normActor(opts.Source)
	input, _ := normalize(opts.Input)
	if !s.opts.RequireHumanApproval {
		a := s.askBook.openAsk[askKey{an.idx, opts.Instance}]
		if a == nil {
			a = s.mintAsk(an, opts.Instance, input, src)
		}
		delete(s.askBook.openAsk, askKey{an.idx, opts.Instance})
		// Closed as declined: it stays in the book for the facts to say
		// so, and counts against Retention.Closed like any answered ask,
		// so declines do not grow without limit.
		a.answer, a.by = answerDeclined, string(src)
		s.askBook.event("declined", a)
		return DeclineResult{AskID: a.id, Action: an.id, Closed: true}, nil
	}
	a := s.askBook.unanswered(an, opts.Instance, input)
	if a == nil {
		a = s.mintAsk(an, opts.Instance, input, src)
	}
	a.relayed = true
	s.askBook.event("relayed-decline", a)
	return DeclineResult{AskID: a.id, Action: an.id, RecordedAs: "your-report"}, nil
}

// Confirm mints an ask with receipts for a high-effect action without
// firing it and without writing a gap row: the question a port puts to the
// human before it fires on behalf of a source the session does not gate
// itself (a user or system source that still confirms), or before a gated
// port attempts any fire. In default mode it supersedes the open card for
// the same action and instance, as a paused fire does. An action the graph
// does not declare is refused with UNKNOWN_ACTION.
func (b AskBook) Confirm(actionID string, opts FireOptions) (AskStatus, error) {
	s := &b.s.st
	an, ok := s.g.actionIndex[actionID]
	if !ok {
		return AskStatus{}, &Error{Reason: ReasonUnknownAction, Msg: "the graph declares no such action", Value: actionID}
	}
	if src := normActor(opts.Source); !an.policy.allows(src) {
		// Nobody is asked to approve what this actor may not do.
		return AskStatus{}, &Error{Reason: ReasonNotAllowed, Msg: "the action's policy does not let this actor fire it, so no card is minted", Value: string(src)}
	}
	input, _ := normalize(opts.Input)
	b.s.mu.Lock()
	defer b.s.unlock()
	a := s.mintAsk(an, opts.Instance, input, normActor(opts.Source))
	return s.askBook.status(a), nil
}

// PersonAnswer is how the person answered a request the application asked
// in its own screen (HeldForPerson).
type PersonAnswer string

// The person's answers, and a request withdrawn unanswered (the deadline,
// a change that voided it, the caller giving up).
const (
	PersonApproved  PersonAnswer = "approved"
	PersonDeclined  PersonAnswer = "declined"
	PersonWithdrawn PersonAnswer = "withdrawn"
)

// HeldForPerson records that the application holds the fire transitionID
// for the person's approval, asked in its own screen under askID (a
// binding passes the contract's request id, agent.ApprovalRequest.ID).
// The card is in the ask book, open, so the model's open questions list
// it and did_it_work answers it by askID: awaiting the person, then,
// once PersonAnswered says so, declined or withdrawn, or, approved, as
// the fire it let through. It is the same book the confirm cards use, in
// either mode: the person's answer comes from the application, never from
// the model's confirm.
func (b AskBook) HeldForPerson(transitionID, askID string) error {
	s := &b.s.st
	b.s.mu.Lock()
	defer b.s.unlock()
	r, ok := s.ledgers.byID[transitionID]
	if !ok || !r.fired {
		return &Error{Reason: ReasonUnknownTransition, Msg: "no fire has that id", Value: transitionID}
	}
	if askID == "" || s.askBook.askByID[askID] != nil {
		return &Error{Reason: ReasonUnknownAsk, Msg: "the ask id is empty or already used", Value: askID}
	}
	a := &ask{id: askID, an: r.an, instance: r.t.Instance, actor: r.t.Actor, inBook: true, seq: s.seq, firedAs: transitionID}
	a.input, _ = normalize(r.input)
	a.receipts = s.receipts(r.an, r.t.Instance, r.input)
	s.askBook.add(a, s.ledgers.keep.Closed)
	s.askBook.event("ask", a)
	return nil
}

// PersonAnswered closes a card HeldForPerson opened with the person's
// answer. by names who answered (for the ask's record). Approved, the
// card is spent by the fire it was held for; declined or withdrawn, it is
// closed and the fire comes to rest as the application says.
func (b AskBook) PersonAnswered(askID string, answer PersonAnswer, by string) error {
	s := &b.s.st
	b.s.mu.Lock()
	defer b.s.unlock()
	return s.askBook.personAnswered(askID, answer, by)
}

// Held returns the id of the open card a fire is held for, or "".
func (b AskBook) Held(transitionID string) string {
	s := &b.s.st
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	if a := s.askBook.held(transitionID); a != nil {
		return a.id
	}
	return ""
}
