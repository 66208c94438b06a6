package journey

import (
	"errors"
	"testing"
)

// ConfirmAsk puts the question without firing: no transition, no gap row,
// no version change; asking again supersedes the card; an unknown action
// is refused with UNKNOWN_ACTION.
func TestConfirmAskMintsWithoutFiring(t *testing.T) {
	s := boundShop(t, Options{Page: "checkout", State: map[string]any{"paymentReady": true}})
	v, transitions := s.View().Version(), len(s.View().Transitions())
	st, err := s.Asks().Confirm("checkout.place-order", FireOptions{Source: ActorUser})
	if err != nil {
		t.Fatal(err)
	}
	if st.AskID == "" || st.Action != "checkout.place-order" || st.Spent {
		t.Fatalf("ask = %+v", st)
	}
	if len(s.View().Transitions()) != transitions || len(s.View().Gaps()) != 0 || s.View().Version() != v || len(s.View().Pending()) != 0 {
		t.Fatalf("ConfirmAsk fired something or wrote a gap row: %d→%d transitions, %d gaps, version %d→%d, %d pending", transitions, len(s.View().Transitions()), len(s.View().Gaps()), v, s.View().Version(), len(s.View().Pending()))
	}
	again, err := s.Asks().Confirm("checkout.place-order", FireOptions{Source: ActorUser})
	if err != nil || again.AskID == st.AskID {
		t.Fatalf("second ask %+v %v", again, err)
	}
	if _, found := s.Asks().Get(st.AskID); found {
		t.Fatal("asking again must supersede the earlier card")
	}
	_, err = s.Asks().Confirm("checkout.launch", FireOptions{})
	var je *Error
	if !errors.As(err, &je) || je.Reason != ReasonUnknownAction {
		t.Fatalf("unknown action: %v", err)
	}
}
