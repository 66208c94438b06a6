package fixed

import (
	"bytes"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// TestTypedAnswersEncodeAsTheirResult: every answer struct, with every
// field set and with none, encodes (encoding/json, no HTML escaping)
// exactly as the ordered result resultOf makes of it, so the struct is
// the wire's shape and the CallResult a caller reads by key is the same
// answer.
func TestTypedAnswersEncodeAsTheirResult(t *testing.T) {
	v := int64(7)
	var nothing any
	yes := true
	vals := CallResult{}
	vals.Set("cart", []any{"a <b>"})
	pos := position{YouAreOn: "p", OffGraph: true, LookingAt: "p.m", Version: 9}
	facts := settledFacts{EffectStatus: journey.EffectPerformed, Outcome: journey.OutcomeCommitted, OutcomeNow: journey.OutcomeRolledBack,
		HowToAct: "h", EffectVerified: "true", WritesObserved: &yes, VerifyHeld: "false", Arrival: journey.ArrivalClaimed, ArrivalMeans: "m",
		Materialized: no(), Why: "w", ToNode: "n", SettledBy: "s", ReportedBy: "r", EvidenceOnRecord: "e",
		Error: &settledError{Reason: "X", Message: "m\u2028", Data: []byte(`{"k":1}`)}, Data: map[string]any{"z": 1, "a": "&"},
		valuesNow: valuesNow{ValuesNow: &vals, ValuesRedacted: []string{"secret"}}, StillWorking: true, StillWorkingMeans: "sw"}
	answers := []any{
		position{}, pos, verdict{}, verdict{OK: true, Judgment: "done", Reason: "R"},
		settledFacts{}, facts,
		settledAnswer{}, settledAnswer{verdict: verdict{OK: true, Judgment: "done"}, Settled: true, Did: "a", settledFacts: facts, position: pos},
		pendingAnswer{}, pendingAnswer{verdict: verdict{OK: true}, Did: "a", HowToAct: "h", StillWorking: true, StillWorkingMeans: "m", position: pos},
		heldAnswer{}, heldAnswer{Did: "a", AskID: "k", HowToAct: "h", position: pos},
		askAnswer{}, askAnswer{AskID: "k", Did: "a", HowToAct: "h", position: pos},
		ambiguousAnswer{}, ambiguousAnswer{Why: "w", AskID: "k", AskedAbout: "a", Did: "d", position: pos},
		unanswerableAnswer{}, unanswerableAnswer{Why: "w", openQuestions: openQuestions{Pending: []string{"t"}, AwaitingSettlement: []string{}, AwaitingHuman: []journey.AskRef{{AskID: "k", Action: "a"}}}, position: pos},
		journeyRow{}, journeyRow{Journey: "j", Does: "d", Feasible: no(), FeasibilityUnknownFor: []string{"k"}, Standing: "in-progress", Open: true},
		routeAnswer{}, routeAnswer{To: "t", Reason: "R", Pages: []string{"p"}, Why: "w", AlreadyHere: true, Hops: []journey.RouteStep{{Action: "a", To: "b"}}, Means: "m"},
		whatsHereAnswer{}, whatsHereAnswer{verdict: verdict{OK: true, Judgment: "unchanged"}, position: pos, SinceVersion: &v,
			Actions: []rawJSON{rawJSON(`{"action":"a"}`)}, ActionsGone: []string{"g"}, ActionsUnchanged: []string{"u"},
			Journeys: []rawJSON{rawJSON(`{"journey":"j"}`)}, JourneysGone: []string{"jg"}, HowToAct: "h", JourneysElsewhere: 3,
			JourneysElsewhereMeans: "m", RouteTo: &routeAnswer{To: "t"}, Facts: "f", Brief: "b", StaleMeans: "s"},
		confirmPart{}, confirmPart{Judgment: "needs-confirm", selector: selector{Step: "s"}, Reason: "R", Does: "d", AskID: "k", HowToAct: "h"},
		declinedPart{}, declinedPart{selector: selector{Action: "a"}, AskID: "k", RecordedAs: "your-report", Why: "w"},
		firedPart{}, firedPart{OK: true, Judgment: "done", Did: "a", EffectStatus: journey.EffectPending, TransitionID: "t", HowToSettle: "h",
			SettleWith: &settleWith{Tool: "x", Arg: "y"}, GuardUnevaluated: []string{"g"}, Executed: no(), Materialized: no(), AlreadyTrue: true,
			Why: "w", Arrival: journey.ArrivalClaimed, ArrivalMeans: "m"},
		rejectedPart{}, rejectedOf(journey.FireResult{Reason: journey.ReasonInstanceRequired, Action: "a", Node: "n", Evidence: []journey.Condition{{Key: "k"}},
			GuardUnevaluated: []string{"g"}, Issues: []string{"i"}, Expects: []byte(`{"type":"object"}`), AskID: "k", Differs: "d",
			PriorTransitionID: "t", Overlay: "o", Required: []string{"user"}, Retriable: true, BlockedBecause: &journey.Blocked{Says: "s"}, Busy: "b"}),
		closedPart{}, closedPart{Frame: journey.FrameCompleted, Judgment: "done", HowToAct: "h", StartWith: "s", Why: "w", Standing: "st"},
		openPart{}, (&frameRows{}).open("in-progress"),
		(&frameRows{ready: []readyRow{readyRowOf(journey.PlanStep{Step: "s", Does: "d", GoesTo: "g", HighEffect: true, GuardUnevaluated: []string{"k"},
			Materialized: no(), Busy: "b", Instances: []string{"i"}, Expects: []byte(`{}`), LastRejected: "t", Reads: []string{"r"}, Writes: []string{"w"}}, []string{"r", "w"})},
			later: []laterRow{laterRowOf(journey.PlanStep{Step: "l", Status: journey.StepOffNode, BlockedOn: []string{"b"}, PriorTransitionID: "t", PriorInstance: "i",
				LastRejected: "x", Enabled: no(), BlockedBecause: &journey.Blocked{Says: "s"}, UnblockedBy: []journey.Unblock{{}}, Busy: "b", Activation: "hidden", Overlay: "o"})},
			human:         []humanRow{humanRowOf(journey.PlanStep{Step: "h", HumanDecides: true, MayInvoke: []string{"agent"}, About: "a"})},
			awaitingHuman: []askRow{{AskID: "k", Step: "s"}}, awaitingState: []string{"s"}, rejected: true, stale: true}).open("with-the-human"),
		whyAnswer{}, whyAnswer{verdict: verdict{OK: true, Judgment: "done"}, Key: "k", Value: &nothing, Redacted: true, position: pos},
		whyRefusal{Why: "w", position: pos},
		journeyRefusal{}, journeyRefusal{verdict: verdict{Reason: "R"}, Journey: "j", Step: "s", Why: "w", Steps: []string{"s"}, Journeys: &[]string{},
			JourneysElsewhere: 2, JourneysElsewhereMeans: "m", position: pos},
		journeyBlocked{}, journeyBlocked{Journey: "j", Why: "w", Evidence: []journey.Condition{{Key: "k"}}, KeptFrame: "f", GuardUnevaluated: []string{"g"}, position: pos},
		journeyHead{}, journeyHead{OK: true, Journey: "j", Step: "s", NewRound: true, NewRoundMeans: "m"},
		actionRefusal{}, actionRefusal{Why: "w", Actions: []string{"a"}, position: pos},
		unknownAction{}, unknownAction{Actions: []string{}, notHere: notHere{Action: "a", Why: "w", On: []string{"p"}, Evidence: []journey.Condition{{}}, GuardUnevaluated: []string{"g"}}, position: pos},
		actionHead{OK: true, Action: "a"}, callRefusal{}, callRefusal{Defect: "d", Tools: []string{"t"}},
	}
	for i, a := range answers {
		want, err := marshal(a)
		if err != nil {
			t.Fatalf("%d %T: %v", i, a, err)
		}
		if got := resultOf(a).JSON(); !bytes.Equal(got, want) {
			t.Fatalf("%d %T:\n result %s\n struct %s", i, a, got, want)
		}
	}
}
