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

type ask struct {
	id         string
	an         *actionNode
	instance   string
	input      any
	actor      Actor
	receipts   Receipts
	answer     string // "", "approved", "declined"
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

func (s *Session) askStatusLocked(a *ask) AskStatus {
	st := AskStatus{AskID: a.id, Action: a.an.id, Does: a.an.does, Instance: a.instance, Answer: a.answer, Spent: a.spent,
		Revoked: a.revoked, RelayedDecline: a.relayed, TransitionID: a.firedAs, Receipts: a.receipts}
	st.Stale = s.staleLocked(a)
	st.Receipts.Because = slices.Clone(st.Receipts.Because)
	st.Receipts.RecentSteps = slices.Clone(st.Receipts.RecentSteps)
	if st.Receipts.WillUse != nil {
		wu := *st.Receipts.WillUse
		wu.Input, _ = normalize(wu.Input)
		st.Receipts.WillUse = &wu
	}
	return st
}

func (s *Session) staleLocked(a *ask) bool {
	return s.opts.RequireHumanApproval && a.answer == "approved" && !a.spent && !a.revoked &&
		s.opts.ApprovalExpiresAfter > 0 && s.now().Sub(a.approvedAt) > s.opts.ApprovalExpiresAfter
}

func (s *Session) askEventLocked(kind string, a *ask) {
	emit(&s.observers, &s.onAsk, "ask observer", AskEvent{Kind: kind, Ask: s.askStatusLocked(a)})
}

func (s *Session) receiptsLocked(an *actionNode, instance string, input any) Receipts {
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
	for i := len(s.fires) - 1; i >= 0 && len(rc.RecentSteps) < maxRecentSteps; i-- {
		r := s.fires[i]
		rc.RecentSteps = append(rc.RecentSteps, RecentStep{What: r.an.id, Actor: r.t.Actor, Outcome: r.t.Outcome})
	}
	slices.Reverse(rc.RecentSteps)
	return rc
}

// mintAskLocked mints a new ask. In default mode there is one open ask per
// action and instance, so asking again supersedes the earlier card.
func (s *Session) mintAskLocked(an *actionNode, instance string, input any, by Actor) *ask {
	if !s.opts.RequireHumanApproval {
		if old := s.openAsk[askKey{an.idx, instance}]; old != nil {
			old.superseded, old.inBook = true, false
			delete(s.openAsk, askKey{an.idx, instance})
			s.askEventLocked("superseded", old)
		}
	}
	s.askSeq++
	a := &ask{id: "ask#" + strconv.FormatInt(s.askSeq, 10), an: an, instance: instance, actor: by, inBook: true, seq: s.seq}
	a.input, _ = normalize(input)
	a.receipts = s.receiptsLocked(an, instance, input)
	s.askBook.add(a, s.keep.Closed)
	if !s.opts.RequireHumanApproval {
		s.openAsk[askKey{an.idx, instance}] = a
	}
	s.askEventLocked("ask", a)
	return a
}

// approvalGateLocked is the enforced-mode gate. It returns the ask whose
// yes authorizes the fire, or the refusal.
func (s *Session) approvalGateLocked(an *actionNode, instance string, input any, opts FireOptions) (*ask, *FireResult) {
	var a *ask
	if opts.AskID != "" {
		a = s.askByID[opts.AskID]
		if a != nil && !a.superseded {
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
		} else {
			a = nil
		}
	} else {
		for i := len(s.asks) - 1; i >= 0; i-- {
			c := s.asks[i]
			if c.an == an && c.instance == instance && jsonEqual(c.input, input) && !c.spent && !c.revoked && c.answer != "declined" && !c.superseded {
				a = c
				break
			}
		}
	}
	if a == nil {
		a = s.mintAskLocked(an, instance, input, ActorAgent)
		rc := a.receipts
		return nil, &FireResult{Reason: ReasonApprovalRequired, AskID: a.id, Receipts: &rc}
	}
	switch {
	case a.revoked:
		return nil, &FireResult{Reason: ReasonApprovalRevoked, AskID: a.id}
	case a.spent:
		return nil, &FireResult{Reason: ReasonApprovalSpent, AskID: a.id}
	case a.answer == "declined":
		return nil, &FireResult{Reason: ReasonApprovalDeclined, AskID: a.id}
	case a.answer == "":
		rc := a.receipts
		return nil, &FireResult{Reason: ReasonApprovalRequired, AskID: a.id, Receipts: &rc}
	case s.staleLocked(a):
		return nil, &FireResult{Reason: ReasonApprovalStale, AskID: a.id}
	}
	return a, nil
}

// spendAskLocked marks the ask used by the fire. Under enforcement a yes
// is single use; in default mode the confirmed card is closed as approved
// and dropped from the book.
func (s *Session) spendAskLocked(askID, transitionID string) {
	a := s.askByID[askID]
	if a == nil {
		return
	}
	a.spent, a.firedAs = true, transitionID
	if !s.opts.RequireHumanApproval {
		a.answer = "approved"
		a.inBook = false
		delete(s.openAsk, askKey{a.an.idx, a.instance})
	}
	s.askEventLocked("used", a)
}

// Asks lists the ask book, oldest first. In default mode a confirmed card
// leaves the book when its fire is recorded and a superseded card leaves
// when it is asked again; under enforcement every card stays.
func (s *Session) Asks() []AskStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []AskStatus
	for _, a := range s.asks {
		if a.inBook {
			out = append(out, s.askStatusLocked(a))
		}
	}
	return out
}

// Ask returns one ask by its exact id, including a spent card that left
// the book (whose TransitionID names the fire it authorized). A
// superseded card, or any near-miss id, is not found.
func (s *Session) Ask(askID string) (AskStatus, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.askByID[askID]
	if !ok || a.superseded {
		return AskStatus{}, false
	}
	return s.askStatusLocked(a), true
}

func (s *Session) humanDoorLocked(askID, by string) (*ask, error) {
	if !s.opts.RequireHumanApproval {
		return nil, &Error{Reason: ReasonNotEnforced, Msg: "the session does not require human approval"}
	}
	if by == "" {
		return nil, &Error{Reason: ReasonNeedsDecider, Msg: "name the person deciding"}
	}
	a, ok := s.askByID[askID]
	if !ok || a.superseded {
		return nil, &Error{Reason: ReasonUnknownAsk, Msg: "no ask has that id", Value: askID}
	}
	return a, nil
}

// ApproveAsk is the application's own Approve button (enforced mode): the
// person named by `by` says yes. The yes authorizes one matching fire.
func (s *Session) ApproveAsk(askID, by string) (AskStatus, error) {
	return s.answerAsk(askID, by, "approved")
}

// DeclineAsk is the application's own Decline button (enforced mode).
func (s *Session) DeclineAsk(askID, by string) (AskStatus, error) {
	return s.answerAsk(askID, by, "declined")
}

func (s *Session) answerAsk(askID, by, answer string) (AskStatus, error) {
	s.mu.Lock()
	defer s.unlock()
	a, err := s.humanDoorLocked(askID, by)
	if err != nil {
		return AskStatus{}, err
	}
	switch {
	case a.spent:
		return AskStatus{}, &Error{Reason: ReasonAskAlreadySpent, Msg: "that yes was already used", Value: askID}
	case a.answer != "" || a.revoked:
		return AskStatus{}, &Error{Reason: ReasonAskAlreadyAnswered, Msg: "that ask was already answered", Value: askID}
	}
	a.answer, a.by = answer, by
	if answer == "approved" {
		a.approvedAt = s.now()
	}
	s.askEventLocked(answer, a)
	return s.askStatusLocked(a), nil
}

// RevokeAsk withdraws a yes before it is used (enforced mode).
func (s *Session) RevokeAsk(askID, by string) (AskStatus, error) {
	s.mu.Lock()
	defer s.unlock()
	a, err := s.humanDoorLocked(askID, by)
	if err != nil {
		return AskStatus{}, err
	}
	switch {
	case a.spent:
		return AskStatus{}, &Error{Reason: ReasonAskAlreadySpent, Msg: "that yes was already used", Value: askID}
	case a.answer == "":
		return AskStatus{}, &Error{Reason: ReasonRevokeUnanswered, Msg: "only a yes can be withdrawn; this ask is unanswered", Value: askID}
	case a.answer != "approved" || a.revoked:
		return AskStatus{}, &Error{Reason: ReasonAskAlreadyAnswered, Msg: "there is no standing yes to withdraw", Value: askID}
	}
	a.revoked, a.by = true, by
	s.askEventLocked("revoked", a)
	return s.askStatusLocked(a), nil
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
func (s *Session) ReportDecline(actionID string, opts FireOptions) (DeclineResult, error) {
	s.mu.Lock()
	defer s.unlock()
	an, ok := s.g.actionIndex[actionID]
	if !ok {
		return DeclineResult{}, &Error{Reason: ReasonUnknownAction, Msg: "ReportDecline names an action the graph does not declare", Value: actionID}
	}
	src := normActor(opts.Source)
	input, _ := normalize(opts.Input)
	if !s.opts.RequireHumanApproval {
		a := s.openAsk[askKey{an.idx, opts.Instance}]
		if a == nil {
			a = s.mintAskLocked(an, opts.Instance, input, src)
		}
		delete(s.openAsk, askKey{an.idx, opts.Instance})
		// Closed as declined: it stays in the book for the facts to say
		// so, and counts against Retention.Closed like any answered ask,
		// so declines do not grow without limit.
		a.answer, a.by = "declined", string(src)
		s.askEventLocked("declined", a)
		return DeclineResult{AskID: a.id, Action: an.id, Closed: true}, nil
	}
	var a *ask
	for i := len(s.asks) - 1; i >= 0; i-- {
		c := s.asks[i]
		if c.an == an && c.instance == opts.Instance && c.answer == "" && !c.superseded && jsonEqual(c.input, input) {
			a = c
			break
		}
	}
	if a == nil {
		a = s.mintAskLocked(an, opts.Instance, input, src)
	}
	a.relayed = true
	s.askEventLocked("relayed-decline", a)
	return DeclineResult{AskID: a.id, Action: an.id, RecordedAs: "your-report"}, nil
}

// ConfirmAsk mints an ask with receipts for a high-effect action without
// firing it and without writing a gap row: the question a port puts to the
// human before it fires on behalf of a source the session does not gate
// itself (a user or system source that still confirms), or before a gated
// port attempts any fire. In default mode it supersedes the open card for
// the same action and instance, as a paused fire does. An action the graph
// does not declare is refused with UNKNOWN_ACTION.
func (s *Session) ConfirmAsk(actionID string, opts FireOptions) (AskStatus, error) {
	an, ok := s.g.actionIndex[actionID]
	if !ok {
		return AskStatus{}, &Error{Reason: ReasonUnknownAction, Msg: "the graph declares no such action", Value: actionID}
	}
	if src := normActor(opts.Source); !an.policy.allows(src) {
		// Nobody is asked to approve what this actor may not do.
		return AskStatus{}, &Error{Reason: ReasonNotAllowed, Msg: "the action's policy does not let this actor fire it, so no card is minted", Value: string(src)}
	}
	input, _ := normalize(opts.Input)
	s.mu.Lock()
	defer s.unlock()
	a := s.mintAskLocked(an, opts.Instance, input, normActor(opts.Source))
	return s.askStatusLocked(a), nil
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
func (s *Session) HeldForPerson(transitionID, askID string) error {
	s.mu.Lock()
	defer s.unlock()
	r, ok := s.byID[transitionID]
	if !ok || !r.fired {
		return &Error{Reason: ReasonUnknownTransition, Msg: "no fire has that id", Value: transitionID}
	}
	if askID == "" || s.askByID[askID] != nil {
		return &Error{Reason: ReasonUnknownAsk, Msg: "the ask id is empty or already used", Value: askID}
	}
	a := &ask{id: askID, an: r.an, instance: r.t.Instance, actor: r.t.Actor, inBook: true, seq: s.seq, firedAs: transitionID}
	a.input, _ = normalize(r.input)
	a.receipts = s.receiptsLocked(r.an, r.t.Instance, r.input)
	s.askBook.add(a, s.keep.Closed)
	s.askEventLocked("ask", a)
	return nil
}

// PersonAnswered closes a card HeldForPerson opened with the person's
// answer. by names who answered (for the ask's record). Approved, the
// card is spent by the fire it was held for; declined or withdrawn, it is
// closed and the fire comes to rest as the application says.
func (s *Session) PersonAnswered(askID string, answer PersonAnswer, by string) error {
	s.mu.Lock()
	defer s.unlock()
	a, ok := s.askByID[askID]
	if !ok || a.firedAs == "" {
		return &Error{Reason: ReasonUnknownAsk, Msg: "no card held for the person has that id", Value: askID}
	}
	if a.answer != "" || a.revoked || a.spent {
		return &Error{Reason: ReasonAskAlreadyAnswered, Msg: "that card was already answered", Value: askID}
	}
	a.by, a.inBook = by, false
	switch answer {
	case PersonApproved:
		a.answer, a.approvedAt, a.spent = "approved", s.now(), true
		s.askEventLocked("approved", a)
	case PersonDeclined:
		a.answer = "declined"
		s.askEventLocked("declined", a)
	default:
		a.revoked = true
		s.askEventLocked("revoked", a)
	}
	return nil
}

// heldAskLocked returns the open card HeldForPerson opened for a fire, or
// nil.
func (s *Session) heldAskLocked(transitionID string) *ask {
	for i := len(s.asks) - 1; i >= 0; i-- {
		if a := s.asks[i]; a.firedAs == transitionID && a.inBook && a.answer == "" && !a.revoked && !a.spent {
			return a
		}
	}
	return nil
}

// HeldAsk returns the id of the open card a fire is held for, or "".
func (s *Session) HeldAsk(transitionID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.heldAskLocked(transitionID); a != nil {
		return a.id
	}
	return ""
}
