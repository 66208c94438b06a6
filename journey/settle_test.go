package journey

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// arms builds a one-page graph whose actions cover the settlement table.
func armsGraph() *Graph {
	return MustNewGraph("arms", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{
		{Name: "write", Does: "Write k", Writes: []string{"k"}},
		{Name: "write2", Does: "Write a and b", Writes: []string{"a", "b"}},
		{Name: "plain", Does: "Do something with no declared writes"},
		{Name: "nav", Does: "Go to q", GoTo: "q"},
		{Name: "checked", Does: "Write k, checked", Writes: []string{"k"}, Verify: Guard{Eq("k", 1)}},
		{Name: "checked-fn", Does: "Write k, checked by code", Writes: []string{"k"}, VerifyFunc: func(v StateView) bool { x, _ := v.Get("k"); return x == float64(2) }},
	}}, {ID: "q", Actions: []Action{{Name: "back", Does: "Back to p", GoTo: "p"}}}}})
}

func TestSettlementArms(t *testing.T) {
	type step func(t *testing.T, s *Session, r FireResult)
	report := func(delta map[string]any) step {
		return func(t *testing.T, s *Session, r FireResult) {
			if rep := s.UpdateState(delta, r.TransitionID); !rep.OK {
				t.Fatalf("report refused: %+v", rep)
			}
		}
	}
	cases := []struct {
		name      string
		tap       bool
		bound     bool
		source    Actor
		action    string
		fail      bool
		then      step
		sync      string // synchronous settlement word
		syncEff   EffectStatus
		eff       EffectStatus
		outcome   Outcome
		verified  Observed
		verifyHdl VerifyVerdict
		errReason Reason
	}{
		{name: "writes+tap+handler: the state report settles it", tap: true, bound: true, action: "p.write", then: report(map[string]any{"k": 1}),
			sync: "awaiting-state", syncEff: EffectPending, eff: EffectPerformed, outcome: OutcomeCommitted, verified: ObservedYes},
		{name: "report missing a declared key", tap: true, bound: true, action: "p.write2", then: report(map[string]any{"a": 1}),
			sync: "awaiting-state", syncEff: EffectPending, eff: EffectPerformed, outcome: OutcomeCommitted, verified: ObservedNo},
		{name: "writes+tap, handler fails before the report", tap: true, bound: true, action: "p.write", fail: true,
			sync: "awaiting-state", syncEff: EffectPending, eff: EffectRefused, outcome: OutcomeRejected, verified: Unobservable, errReason: ReasonHandlerFailed},
		{name: "writes+tap, user self-report without handler", tap: true, source: ActorUser, action: "p.write", then: report(map[string]any{"k": 1}),
			sync: "awaiting-state", syncEff: EffectPending, eff: EffectPerformed, outcome: OutcomeCommitted, verified: ObservedYes},
		{name: "writes, no tap, handler: completion settles, unobservable", bound: true, action: "p.write",
			sync: "awaiting-state", syncEff: EffectPending, eff: EffectPerformed, outcome: OutcomeCommitted, verified: Unobservable},
		{name: "writes, no tap, no handler: settled at once", source: ActorUser, action: "p.write",
			sync: "settled", syncEff: EffectUnobservable, eff: EffectUnobservable, outcome: OutcomeCommitted, verified: Unobservable},
		{name: "no writes, handler: committed at once, settles on completion", bound: true, action: "p.plain",
			sync: "settled", syncEff: EffectPending, eff: EffectPerformed, outcome: OutcomeCommitted, verified: Unobservable},
		{name: "no writes, handler fails: rolled back", bound: true, action: "p.plain", fail: true,
			sync: "settled", syncEff: EffectPending, eff: EffectRefused, outcome: OutcomeRolledBack, verified: Unobservable, errReason: ReasonHandlerFailed},
		{name: "no writes, no handler", source: ActorSystem, action: "p.plain",
			sync: "settled", syncEff: EffectUnobservable, eff: EffectUnobservable, outcome: OutcomeCommitted, verified: Unobservable},
		{name: "verify holds", tap: true, bound: true, action: "p.checked", then: report(map[string]any{"k": 1}),
			sync: "awaiting-state", syncEff: EffectPending, eff: EffectPerformed, outcome: OutcomeCommitted, verified: ObservedYes, verifyHdl: VerifyHeld},
		{name: "verify fails", tap: true, bound: true, action: "p.checked", then: report(map[string]any{"k": 5}),
			sync: "awaiting-state", syncEff: EffectPending, eff: EffectRefused, outcome: OutcomeCommitted, verified: ObservedYes, verifyHdl: VerifyNotHeld, errReason: ReasonVerifyFailed},
		{name: "verify by code fails", tap: true, bound: true, action: "p.checked-fn", then: report(map[string]any{"k": 1}),
			sync: "awaiting-state", syncEff: EffectPending, eff: EffectRefused, outcome: OutcomeCommitted, verified: ObservedYes, verifyHdl: VerifyNotHeld, errReason: ReasonVerifyFailed},
		{name: "reject a pending fire", tap: true, bound: true, action: "p.write", then: func(t *testing.T, s *Session, r FireResult) {
			if err := s.Reject(r.TransitionID, "", nil); err != nil {
				t.Fatal(err)
			}
		}, sync: "awaiting-state", syncEff: EffectPending, eff: EffectRefused, outcome: OutcomeRejected, verified: Unobservable, errReason: ReasonRejected},
		{name: "external report settles", tap: true, bound: true, action: "p.write", then: func(t *testing.T, s *Session, r FireResult) {
			if _, err := s.ObserveEffect(r.TransitionID, Observation{Source: "psp", Status: EffectPerformed, EvidenceRef: "tx-1"}); err != nil {
				t.Fatal(err)
			}
		}, sync: "awaiting-state", syncEff: EffectPending, eff: EffectPerformed, outcome: OutcomeCommitted, verified: Unobservable},
		{name: "external refusal", tap: true, bound: true, action: "p.write", then: func(t *testing.T, s *Session, r FireResult) {
			if _, err := s.ObserveEffect(r.TransitionID, Observation{Source: "psp", Status: EffectRefused}); err != nil {
				t.Fatal(err)
			}
		}, sync: "awaiting-state", syncEff: EffectPending, eff: EffectRefused, outcome: OutcomeRejected, verified: Unobservable, errReason: ReasonExternalRefused},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := Options{}
			if c.tap {
				opts.State = map[string]any{}
			}
			s := armsGraph().MustNewSession(opts)
			release := make(chan struct{})
			if c.bound {
				h := func(context.Context, any) (any, error) {
					<-release
					if c.fail {
						return nil, errors.New("the server said no")
					}
					return map[string]any{"receipt": "r-1"}, nil
				}
				s.RegisterActions("p", Registration{Handlers: map[string]Handler{"write": h, "write2": h, "plain": h, "checked": h, "checked-fn": h}})
			}
			r := s.Fire(context.Background(), c.action, FireOptions{Source: c.source})
			if !r.OK || string(r.Settlement) != c.sync || r.EffectStatus != c.syncEff {
				t.Fatalf("fire: %+v; want settlement %s, effectStatus %s", r, c.sync, c.syncEff)
			}
			close(release)
			if c.then != nil {
				c.then(t, s, r)
			}
			st := settle(t, s, r.TransitionID)
			if st.EffectStatus != c.eff || st.Outcome != c.outcome || st.EffectVerified != c.verified || st.VerifyHeld != c.verifyHdl {
				t.Fatalf("settlement %+v; want %s/%s/%s/%q", st, c.eff, c.outcome, c.verified, c.verifyHdl)
			}
			if (st.Error == nil) != (c.errReason == "") || (st.Error != nil && st.Error.Reason != c.errReason) {
				t.Fatalf("settlement error %+v, want %q", st.Error, c.errReason)
			}
			if b, known := c.verified.Bool(); (st.WritesObserved != nil) != known || (known && *st.WritesObserved != b) {
				t.Fatalf("writesObserved %v for effectVerified %s", st.WritesObserved, c.verified)
			}
			if st.Action != c.action || st.TransitionID != r.TransitionID {
				t.Fatalf("settlement names %s/%s", st.Action, st.TransitionID)
			}
			if st.OutcomeNow != "" {
				// Give a still-running handler a moment: a late failure may move the live outcome.
				t.Fatalf("fresh settlement carries outcomeNow %q", st.OutcomeNow)
			}
			if c.bound && !c.fail && c.eff == EffectPerformed && c.then == nil {
				waitFor(t, s, "produced data", func() bool { st, _, _ := s.View().SettlementIfKnown(r.TransitionID); return st.Produced != nil })
				st, _, _ := s.View().SettlementIfKnown(r.TransitionID)
				if m, _ := st.Produced.(map[string]any); m["receipt"] != "r-1" {
					t.Fatalf("produced data %v", st.Produced)
				}
			}
		})
	}
}

func TestFirstSettlementWinsAndOutcomeNow(t *testing.T) {
	s := armsGraph().MustNewSession(Options{State: map[string]any{}})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"write": ok}})
	r := mustFire(t, s, "p.write", FireOptions{})
	s.UpdateState(map[string]any{"k": 1}, r.TransitionID)
	first := settle(t, s, r.TransitionID)
	if first.Outcome != OutcomeCommitted || first.EffectStatus != EffectPerformed {
		t.Fatalf("%+v", first)
	}
	v := s.View().Version()
	// The server rejects the order the app already reported.
	if err := s.Reject(r.TransitionID, "", nil); err != nil {
		t.Fatal(err)
	}
	if s.View().Version() != v+1 {
		t.Fatal("a rollback must move the version")
	}
	again := settle(t, s, r.TransitionID)
	if again.Outcome != OutcomeCommitted || again.EffectStatus != EffectPerformed || again.SettledAt != first.SettledAt {
		t.Fatalf("the receipt was rewritten: %+v", again)
	}
	if again.OutcomeNow != OutcomeRolledBack {
		t.Fatalf("outcomeNow = %q, want rolled-back beside the receipt", again.OutcomeNow)
	}
	// A later report and a later observation change nothing on the receipt.
	s.UpdateState(map[string]any{"k": 2}, r.TransitionID)
	o, err := s.ObserveEffect(r.TransitionID, Observation{Source: "late", Status: EffectRefused})
	if err != nil || o.Settled {
		t.Fatalf("a late observation must be kept unsettled: %+v %v", o, err)
	}
	if st := settle(t, s, r.TransitionID); st.Outcome != OutcomeCommitted || st.EffectStatus != EffectPerformed {
		t.Fatalf("receipt moved: %+v", st)
	}
	if err := s.Reject(r.TransitionID, "", nil); !errors.Is(err, &Error{Reason: ReasonAlreadyFinal}) {
		t.Fatalf("rejecting twice: %v", err)
	}
	// Superseded, on a fresh committed fire.
	r2 := mustFire(t, s, "p.write", FireOptions{})
	s.UpdateState(map[string]any{"k": 3}, r2.TransitionID)
	settle(t, s, r2.TransitionID)
	if err := s.Reject(r2.TransitionID, OutcomeSuperseded, nil); err != nil {
		t.Fatal(err)
	}
	if st := settle(t, s, r2.TransitionID); st.OutcomeNow != OutcomeSuperseded {
		t.Fatalf("%+v", st)
	}
	if err := s.Reject("p.write#999", "", nil); !errors.Is(err, &Error{Reason: ReasonUnknownTransition}) {
		t.Fatalf("unknown id: %v", err)
	}
}

// TestSettlementOfWaitsAndStaysOpen runs in a synctest bubble: the
// 30 ms deadline is the bubble's clock, and synctest.Wait knows the
// waiter is blocked before the report is made.
func TestSettlementOfWaitsAndStaysOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := armsGraph().MustNewSession(Options{State: map[string]any{}})
		s.RegisterActions("p", Registration{Handlers: map[string]Handler{"write": ok}})
		r := mustFire(t, s, "p.write", FireOptions{})
		// Never reported: the wait stays open until the context ends.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		if _, err := s.SettlementOf(ctx, r.TransitionID); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("an unreported fire must not settle: %v", err)
		}
		if _, known, err := s.View().SettlementIfKnown(r.TransitionID); known || err != nil {
			t.Fatal("SettlementIfKnown must say 'not yet' for a fire in flight")
		}
		done, err := s.Settled(r.TransitionID)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan Settlement)
		go func() {
			st, _ := s.SettlementOf(context.Background(), r.TransitionID)
			got <- st
		}()
		// The waiter is blocked in SettlementOf before the report arrives.
		synctest.Wait()
		s.UpdateState(map[string]any{"k": 1}, "")
		select {
		case st := <-got:
			if st.Outcome != OutcomeCommitted {
				t.Fatalf("%+v", st)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("SettlementOf did not wake on the report")
		}
		<-done
		if !slices.Equal(s.View().AwaitingSettlement(), nil) {
			t.Fatalf("awaiting %v", s.View().AwaitingSettlement())
		}
	})
}

func TestArrivalClaimedThenObserved(t *testing.T) {
	s := armsGraph().MustNewSession(Options{})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"nav": ok}})
	s.RegisterActions("q", Registration{Handlers: map[string]Handler{"back": ok}})
	r := mustFire(t, s, "p.nav", FireOptions{})
	if !r.ToNodeClaimed || s.View().Position().YouAreOn != "q" {
		t.Fatalf("a committed navigation claim moves the cursor: %+v on %s", r, s.View().Position().YouAreOn)
	}
	st := settle(t, s, r.TransitionID)
	if st.Arrival != ArrivalClaimed || st.ToNode != "q" {
		t.Fatalf("arrival %q toNode %q, want claimed/q", st.Arrival, st.ToNode)
	}
	v := s.View().Version()
	res := s.Sync("/q-has-no-route") // off graph: closes nothing about q
	if res.Observed != "" || !res.OffGraph {
		t.Fatalf("%+v", res)
	}
	// The window closed with no verdict: it stays claimed forever.
	s.Sync("q")
	if st := settle(t, s, r.TransitionID); st.Arrival != ArrivalClaimed {
		t.Fatalf("a sync after the window closed upgraded the claim: %q", st.Arrival)
	}
	_ = v

	// A fresh claim, corroborated by a sync that changes nothing.
	r2 := mustFire(t, s, "q.back", FireOptions{})
	settle(t, s, r2.TransitionID)
	v = s.View().Version()
	res = s.Sync("p")
	if res.Changed || res.Observed != r2.TransitionID || s.View().Version() != v {
		t.Fatalf("corroborating sync: %+v (version %d → %d); the upgrade bumps no version", res, v, s.View().Version())
	}
	st2 := settle(t, s, r2.TransitionID)
	if st2.Arrival != ArrivalObserved {
		t.Fatalf("arrival %q, want observed", st2.Arrival)
	}
	// Arrival is absent on an action that declares no destination.
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"plain": ok}})
	r3 := mustFire(t, s, "p.plain", FireOptions{})
	if st := settle(t, s, r3.TransitionID); st.Arrival != "" {
		t.Fatalf("arrival on a non-navigating action: %q", st.Arrival)
	}
	b, _ := json.Marshal(st2)
	var m map[string]any
	json.Unmarshal(b, &m)
	if m["arrival"] != "observed" || m["did"] != "p.nav" && m["did"] != "q.back" {
		t.Fatalf("settlement JSON %s", b)
	}
}

func TestRollbackWalksTheCursorBack(t *testing.T) {
	s := armsGraph().MustNewSession(Options{})
	release := make(chan struct{})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"nav": func(context.Context, any) (any, error) {
		<-release
		return nil, errors.New("blocked by the router")
	}}})
	r := mustFire(t, s, "p.nav", FireOptions{})
	if s.View().Position().YouAreOn != "q" {
		t.Fatal("the claim should have moved the cursor")
	}
	close(release)
	st := settle(t, s, r.TransitionID)
	if st.Outcome != OutcomeRolledBack || s.View().Position().YouAreOn != "p" {
		t.Fatalf("%+v, cursor on %s", st, s.View().Position().YouAreOn)
	}
}

func TestStateAttribution(t *testing.T) {
	s := armsGraph().MustNewSession(Options{State: map[string]any{}})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"write": ok, "write2": ok}})
	w1 := mustFire(t, s, "p.write", FireOptions{})
	w2 := mustFire(t, s, "p.write2", FireOptions{})
	w3 := mustFire(t, s, "p.write", FireOptions{})
	pending := s.View().Pending()
	if len(pending) != 3 || pending[0].ID != w1.TransitionID {
		t.Fatalf("pending %+v", pending)
	}
	cases := []struct {
		name   string
		delta  map[string]any
		id     string
		want   string
		basis  Basis
		reason Reason
	}{
		{"unknown id changes nothing", map[string]any{"k": 9}, "p.write#404", "", "", ReasonUnknownTransition},
		{"covers nobody's writes: a stimulus", map[string]any{"a": 1}, "", "", "stimulus", ""},
		{"named by report, out of order", map[string]any{"k": 1}, w3.TransitionID, w3.TransitionID, "named-by-report", ""},
		{"oldest pending fire whose writes it covers", map[string]any{"k": 2, "b": 1, "a": 1}, "", w1.TransitionID, "queue-order", ""},
		{"then the only one left: its signature", map[string]any{"a": 2, "b": 2}, "", w2.TransitionID, "signature-match", ""},
	}
	for _, c := range cases {
		v, sv := s.View().Version(), s.View().StateVersion()
		before := s.View().State()
		rep := s.UpdateState(c.delta, c.id)
		if c.reason != "" {
			if rep.OK || rep.Reason != c.reason || len(rep.Pending) != 3 {
				t.Fatalf("%s: %+v", c.name, rep)
			}
			if s.View().Version() != v || s.View().StateVersion() != sv || len(s.View().State()) != len(before) {
				t.Fatalf("%s: a refused report changed something", c.name)
			}
			continue
		}
		if !rep.OK || rep.Basis != c.basis || (c.want != "" && rep.TransitionID != c.want) {
			t.Fatalf("%s: %+v", c.name, rep)
		}
		if s.View().StateVersion() != sv+1 {
			t.Fatalf("%s: stateVersion did not move", c.name)
		}
	}
	if tr, _ := s.View().Transition(w1.TransitionID); !tr.Inferred {
		t.Fatal("a queue-order attribution is marked inferred")
	}
	if tr, _ := s.View().Transition(w3.TransitionID); tr.Inferred {
		t.Fatal("a named report is not inferred")
	}
	v := s.View().Version()
	if rep := s.UpdateState(map[string]any{}, ""); !rep.OK || rep.Basis != "empty" || s.View().Version() != v {
		t.Fatalf("an empty anonymous delta records nothing: %+v", rep)
	}
	rep := s.UpdateState(map[string]any{"bad": func() {}}, "")
	if rep.OK || rep.Reason != ReasonUncloneableDelta {
		t.Fatalf("%+v", rep)
	}
	if _, ok := s.View().State()["bad"]; ok {
		t.Fatal("a bad delta was partly applied")
	}
}

func TestStillWorking(t *testing.T) {
	s := armsGraph().MustNewSession(Options{})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"plain": ok}})
	r := mustFire(t, s, "p.plain", FireOptions{})
	w := s.BeginWork("Uploading…", r.TransitionID)
	if !s.View().StillWorking(r.TransitionID) || s.View().StillWorking("p.plain#999") {
		t.Fatal("StillWorking")
	}
	st := settle(t, s, r.TransitionID)
	if !st.StillWorking || len(s.View().OpenWork()) != 1 {
		t.Fatalf("stillWorking rides the settled answer: %+v", st)
	}
	w.Done(nil)
	w.Done(nil)
	if st := settle(t, s, r.TransitionID); st.StillWorking || len(s.View().OpenWork()) != 0 {
		t.Fatalf("%+v", st)
	}
	// Work that fails is that fire's failure: a claims-only commit rolls back.
	r2 := mustFire(t, s, "p.plain", FireOptions{})
	settle(t, s, r2.TransitionID)
	s.BeginWork("", r2.TransitionID).Done(errors.New("upload failed"))
	if st := settle(t, s, r2.TransitionID); st.Outcome != OutcomeCommitted || st.OutcomeNow != OutcomeRolledBack {
		t.Fatalf("%+v", st)
	}
}

func TestObserveEffectRefusals(t *testing.T) {
	s := armsGraph().MustNewSession(Options{State: map[string]any{}})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"write": ok}})
	r := mustFire(t, s, "p.write", FireOptions{})
	syncID := s.Sync("q").Version
	_ = syncID
	var syncRow string
	for _, tr := range s.View().Transitions() {
		if tr.Kind == KindSync {
			syncRow = tr.ID
		}
	}
	cases := []struct {
		id   string
		o    Observation
		want Reason
	}{
		{"nope", Observation{Status: EffectPerformed}, ReasonUnknownTransition},
		{syncRow, Observation{Status: EffectPerformed}, ReasonNotAFire},
		{r.TransitionID, Observation{Status: "done"}, ReasonInvalidObservation},
		{r.TransitionID, Observation{Status: EffectPending}, ReasonInvalidObservation},
	}
	for _, c := range cases {
		if _, err := s.ObserveEffect(c.id, c.o); !errors.Is(err, &Error{Reason: c.want}) {
			t.Fatalf("ObserveEffect(%q, %v) = %v, want %s", c.id, c.o.Status, err, c.want)
		}
	}
	if _, known, _ := s.View().SettlementIfKnown(r.TransitionID); known {
		t.Fatal("a refused observation settled the fire")
	}
	s.ObserveEffect(r.TransitionID, Observation{Source: "psp", Status: EffectPerformed, EvidenceRef: "tx-9"})
	st := settle(t, s, r.TransitionID)
	if st.SettledBy != "external-report" || st.ReportedBy != "psp" || st.EvidenceRef != "tx-9" {
		t.Fatalf("%+v", st)
	}
	if obs := s.View().ObservationsOf(r.TransitionID); len(obs) != 1 || !obs[0].Settled {
		t.Fatalf("%+v", obs)
	}
}
